import Foundation
import Testing
import Activity

@Suite("Hashtags and mentions")
struct TextParserTests {
    @Test func hashtagsDeduplicateKeepingTheFirstSpelling() {
        #expect(TextParser.hashtags(in: "#Cats #cats #café") == ["Cats", "café"])
    }

    @Test(arguments: [
        ("Morning walk #birds #Birds_of_Finland #2024 #35mm", ["birds", "Birds_of_Finland", "35mm"]),
        ("#朝焼け と #Sunrise", ["朝焼け", "Sunrise"]),
        ("#Ελλάδα #zażółć #çay", ["Ελλάδα", "zażółć", "çay"]),
        ("start #tag, end #tag2.", ["tag", "tag2"]),
        ("(#inparens) \"#quoted\"", ["inparens", "quoted"]),
        ("a#b c# #", []),
        ("#123 #4567", []),
        ("see https://example.com/page#section and https://example.com/?q=#notatag", []),
        ("http://x.example/#frag #real", ["real"]),
        ("C# and F# are languages", []),
        ("line one\n#second", ["second"]),
        ("##double #ok", ["ok"]),
        ("&#39;entity", []),
    ])
    func hashtagRules(text: String, tags: [String]) {
        #expect(TextParser.hashtags(in: text) == tags)
    }

    @Test func decomposedAccentsStayInTheTag() {
        // "café" typed with a combining acute accent.
        #expect(TextParser.hashtags(in: "#cafe\u{301} time") == ["cafe\u{301}"])
    }

    @Test(arguments: [
        ("@bob", [Mention(username: "bob")]),
        ("hi @bob@other.example!", [Mention(username: "bob", domain: "other.example")]),
        ("@bob@127.0.0.1:8081 look", [Mention(username: "bob", domain: "127.0.0.1:8081")]),
        ("@Bob@Other.Example.", [Mention(username: "Bob", domain: "other.example")]),
        ("(@alice) and @carol_2,", [Mention(username: "alice"), Mention(username: "carol_2")]),
        ("@first.last@a.example", [Mention(username: "first.last", domain: "a.example")]),
        ("cc @bob @bob @BOB@a.example @bob@a.example", [Mention(username: "bob"), Mention(username: "BOB", domain: "a.example")]),
        ("@bob@localhost:3000", [Mention(username: "bob", domain: "localhost:3000")]),
    ])
    func mentionsAreFound(text: String, mentions: [Mention]) {
        #expect(TextParser.mentions(in: text) == mentions)
    }

    @Test(arguments: [
        "mail me at x@y.z", "carol@fednode.example", "https://mastodon.example/@alice", "@ alone", "@@bob",
        "a=@b", "name.@bob", "@.", "@-", "email first.last@a.example",
    ])
    func notMentions(text: String) {
        #expect(TextParser.mentions(in: text) == [])
    }

    @Test func underscoreOnlyUsernameIsStillAUsername() {
        #expect(TextParser.mentions(in: "@_") == [Mention(username: "_")])
    }

    @Test func mentionAcct() {
        #expect(Mention(username: "bob", domain: "a.example").acct == "bob@a.example")
        #expect(Mention(username: "bob").acct == "bob")
    }

    @Test func invalidDomainLeavesALocalMention() {
        #expect(TextParser.mentions(in: "@bob@-bad-") == [Mention(username: "bob")])
    }
}
