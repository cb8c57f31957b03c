#!/usr/bin/env python3
"""Exits 0 when a PNG screenshot shows something: at least 1 % of its pixels differ from the most common one.

  /usr/bin/python3 bin/lib/png_ink.py FILE.png
Decodes 8-bit RGB/RGBA PNGs (what Chromium writes) with zlib alone; prints why on failure.
"""
import struct
import sys
import zlib
from collections import Counter


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", chunk[:10])
            if depth != 8 or color not in (2, 6):
                raise ValueError(f"unsupported PNG (depth {depth}, color type {color})")
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw, stride, prev, rows = zlib.decompress(idat), width * bpp, bytearray(width * bpp), []
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main():
    path = sys.argv[1]
    try:
        width, height, bpp, rows = pixels(path)
    except (OSError, ValueError, zlib.error, struct.error) as e:
        print(f"site-check: {path}: no screenshot ({e})", file=sys.stderr)
        return 1
    counts = Counter()
    for row in rows[::8]:  # every 8th row and column is plenty
        for x in range(0, width * bpp, 8 * bpp):
            counts[row[x:x + 3]] += 1
    total = sum(counts.values())
    ink = 1 - counts.most_common(1)[0][1] / total
    if ink < 0.01:
        print(f"site-check: {path} is blank ({ink:.2%} of pixels differ from the background)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
