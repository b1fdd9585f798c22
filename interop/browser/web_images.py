"""Small PNG photos made in pure Python (no imaging library): soft gradients that look like
photos in screenshots, for the browser test's uploads."""
import struct
import zlib


def png(width, height, top, bottom, sun=None):
    """A PNG of a vertical gradient from `top` to `bottom` (RGB tuples), with an optional
    round `sun` (x, y, radius, colour)."""
    rows = bytearray()
    for y in range(height):
        t = y / max(height - 1, 1)
        base = bytes(int(top[i] + (bottom[i] - top[i]) * t) for i in range(3))
        row = bytearray(base * width)
        if sun:
            sx, sy, radius, colour = sun
            dy = y - sy
            if abs(dy) < radius:
                half = int((radius * radius - dy * dy) ** 0.5)
                for x in range(max(sx - half, 0), min(sx + half, width)):
                    row[3 * x:3 * x + 3] = bytes(colour)
        rows += b"\x00" + row

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows), 6)) + chunk(b"IEND", b"")


PHOTOS = [
    ("sunset", (255, 183, 94), (196, 54, 108), (300, 250, 70, (255, 236, 170))),
    ("sea", (120, 196, 240), (20, 70, 140), (460, 90, 40, (255, 255, 230))),
    ("forest", (186, 230, 160), (24, 92, 64), None),
]


def write_photos(directory):
    """Writes three photos, an avatar and a cover into `directory`; returns their paths by name."""
    paths = {}
    for name, top, bottom, sun in PHOTOS:
        paths[name] = _write(directory, name, png(600, 450, top, bottom, sun))
    paths["avatar"] = _write(directory, "avatar", png(200, 200, (255, 200, 221), (132, 94, 247), (100, 80, 45, (255, 244, 230))))
    paths["cover"] = _write(directory, "cover", png(900, 300, (255, 222, 235), (77, 171, 247), (700, 120, 60, (255, 249, 219))))
    return paths


def _write(directory, name, data):
    path = f"{directory}/{name}.png"
    with open(path, "wb") as handle:
        handle.write(data)
    return path
