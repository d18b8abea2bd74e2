#!/usr/bin/env python3
"""Checks that a screenshot from the demo shows all three layers: green, red and blue pixels.

Usage: check-screenshot.py FILE.png [WIDTH HEIGHT]. Standard library only (zlib), so CI needs nothing
else. Exits 1 with a one-line reason when a layer is missing.
"""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG file")
    pos, idat = 8, b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                sys.exit(f"{path}: expected 8-bit RGB or RGBA, got depth {depth} colour type {colour}")
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    bpp = 4 if colour == 6 else 3
    stride = width * bpp
    pixels, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        kind = raw[i]
        line = bytearray(raw[i + 1 : i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        pixels.extend(tuple(line[x : x + 3]) for x in range(0, stride, bpp))
        prev = line
    return width, height, pixels


def main():
    path = sys.argv[1]
    width, height, pixels = read_png(path)
    if len(sys.argv) == 4 and (width, height) != (int(sys.argv[2]), int(sys.argv[3])):
        sys.exit(f"{path}: {width}x{height}, expected {sys.argv[2]}x{sys.argv[3]}")
    counts = {"green": 0, "red": 0, "blue": 0}
    for r, g, b in pixels:
        if r > 150 and r > g + 80 and r > b + 80:
            counts["red"] += 1
        elif g > 150 and g > r + 80 and g > b + 80:
            counts["green"] += 1
        elif b > 150 and b > r + 80 and b > g + 60:
            counts["blue"] += 1
    missing = [name for name, n in counts.items() if n < 20]
    if missing:
        sys.exit(f"{path}: too few {', '.join(missing)} pixels: {counts}")
    print(f"{path}: {width}x{height}, pixels per layer {counts}")


main()
