import Core
import Mustache

// The page views hand their fields to the templates by name. Without `MustacheParent`, Mustache
// finds a field through `Mirror`, which demangles the type of every stored property at every
// lookup: that was two thirds of the server's CPU on the web feed page. Each view answers for
// every stored property (a test compares them with `Mirror`), and `nil` for an absent optional
// or an unknown name, so a section looks further up the context as it did through `Mirror`.

extension WebAccountView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "name": self.name
        case "handle": handle
        case "path": path
        case "avatar": avatar
        case "header": header
        case "note": note
        case "fullName": fullName
        case "locked": locked
        case "followers": followers
        case "following": following
        case "posts": posts
        case "fields": fields
        case "local": local
        case "followButton": followButton
        default: nil
        }
    }
}

extension WebAccountView.Field: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "value": value
        default: nil
        }
    }
}

extension WebCard: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "path": path
        case "author": author
        case "time": time
        case "timeISO": timeISO
        case "photos": photos
        case "cover": cover
        case "several": several
        case "caption": caption
        case "spoiler": spoiler
        case "likes": likes
        case "liked": liked
        case "comments": comments
        case "mine": mine
        case "text": text
        case "boostedBy": boostedBy
        case "audience": audience
        case "latestComments": latestComments
        case "hasComments": hasComments
        case "poll": poll
        default: nil
        }
    }
}

extension WebPoll: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "options": options
        case "canVote": canVote
        case "inputType": inputType
        case "summary": summary
        default: nil
        }
    }
}

extension WebPoll.Option: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "index": index
        case "title": title
        case "percent": percent
        case "chosen": chosen
        default: nil
        }
    }
}

extension WebPhoto: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "src": src
        case "thumb": thumb
        case "alt": alt
        case "width": width
        case "height": height
        case "thumbWidth": thumbWidth
        case "thumbHeight": thumbHeight
        case "index": index
        case "count": count
        default: nil
        }
    }
}

extension WebNotification: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "account": account
        case "sentence": sentence
        case "card": card
        case "time": time
        case "isRequest": isRequest
        default: nil
        }
    }
}

extension WebMeta: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "description": description
        case "image": image
        case "url": url
        case "activityId": activityId
        default: nil
        }
    }
}
