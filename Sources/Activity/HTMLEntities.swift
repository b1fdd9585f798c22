/// Named character references FedNode decodes: the ones remote servers actually emit
/// (escaping, typography, Latin-1 letters), not the full HTML table of 2,231 names.
enum HTMLEntities {
    /// Names that browsers also decode without a trailing `;`.
    static let legacy: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\""]

    /// Name (without `&` and `;`) → text.
    static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        "hellip": "…", "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "sbquo": "‚",
        "ldquo": "“", "rdquo": "”", "bdquo": "„", "laquo": "«", "raquo": "»", "lsaquo": "‹",
        "rsaquo": "›", "copy": "©", "reg": "®", "trade": "™", "middot": "·", "bull": "•",
        "euro": "€", "pound": "£", "yen": "¥", "cent": "¢", "sect": "§", "para": "¶",
        "deg": "°", "plusmn": "±", "times": "×", "divide": "÷", "frac12": "½", "frac14": "¼",
        "frac34": "¾", "iexcl": "¡", "iquest": "¿", "shy": "\u{AD}", "zwj": "\u{200D}",
        "zwnj": "\u{200C}", "thinsp": "\u{2009}", "ensp": "\u{2002}", "emsp": "\u{2003}",
        "prime": "′", "Prime": "″", "larr": "←", "rarr": "→", "uarr": "↑", "darr": "↓",
        "harr": "↔", "hearts": "♥", "star": "☆", "starf": "★", "micro": "µ", "ordf": "ª",
        "ordm": "º", "sup1": "¹", "sup2": "²", "sup3": "³", "dagger": "†", "Dagger": "‡",
        "permil": "‰", "not": "¬", "macr": "¯", "acute": "´", "cedil": "¸", "uml": "¨",
        "Agrave": "À", "Aacute": "Á", "Acirc": "Â", "Atilde": "Ã", "Auml": "Ä", "Aring": "Å",
        "AElig": "Æ", "Ccedil": "Ç", "Egrave": "È", "Eacute": "É", "Ecirc": "Ê", "Euml": "Ë",
        "Igrave": "Ì", "Iacute": "Í", "Icirc": "Î", "Iuml": "Ï", "Ntilde": "Ñ", "Ograve": "Ò",
        "Oacute": "Ó", "Ocirc": "Ô", "Otilde": "Õ", "Ouml": "Ö", "Oslash": "Ø", "Ugrave": "Ù",
        "Uacute": "Ú", "Ucirc": "Û", "Uuml": "Ü", "Yacute": "Ý", "szlig": "ß", "agrave": "à",
        "aacute": "á", "acirc": "â", "atilde": "ã", "auml": "ä", "aring": "å", "aelig": "æ",
        "ccedil": "ç", "egrave": "è", "eacute": "é", "ecirc": "ê", "euml": "ë", "igrave": "ì",
        "iacute": "í", "icirc": "î", "iuml": "ï", "ntilde": "ñ", "ograve": "ò", "oacute": "ó",
        "ocirc": "ô", "otilde": "õ", "ouml": "ö", "oslash": "ø", "ugrave": "ù", "uacute": "ú",
        "ucirc": "û", "uuml": "ü", "yacute": "ý", "yuml": "ÿ", "OElig": "Œ", "oelig": "œ",
        "Scaron": "Š", "scaron": "š", "Yuml": "Ÿ", "eth": "ð", "ETH": "Ð", "thorn": "þ",
        "THORN": "Þ",
    ]
}
