#!/usr/bin/env python3
# SPDX-FileCopyrightText: The KeepTrying authors
# SPDX-License-Identifier: MIT

"""Draws the preview pictures of the sample library (resources/images/preview-NN.png).

Run once after adding articles to resources/articles/articles.json (and list new pictures
in resources/demo_library.qrc):
    python3 resources/tools/generate_previews.py
Each picture is a 320x180 gradient in colours picked from the article's first tag, with a
simple shape, written as a PNG with the standard library only (zlib + struct).
"""

import colorsys
import json
import os
import struct
import zlib

WIDTH, HEIGHT = 320, 180
HERE = os.path.dirname(os.path.abspath(__file__))
RESOURCES = os.path.dirname(HERE)

# Hue (0..1) per topic; other tags get a hue from their name.
TOPIC_HUES = {
    "networking": 0.58, "software": 0.66, "cooking": 0.07, "cuisine": 0.07, "travel": 0.50,
    "reisen": 0.50, "science": 0.75, "history": 0.11, "design": 0.88, "music": 0.83,
    "gardening": 0.30, "health": 0.40, "photography": 0.62, "money": 0.16, "languages": 0.95,
    "astronomy": 0.70, "sport": 0.02, "architecture": 0.09, "habits": 0.45, "home": 0.13,
}


def hue_for(tag):
    if tag in TOPIC_HUES:
        return TOPIC_HUES[tag]
    return (sum(map(ord, tag)) % 360) / 360.0


def rgb(h, s, v):
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, s, v)
    return int(r * 255), int(g * 255), int(b * 255)


def draw(article_id, hue):
    top = rgb(hue, 0.55, 0.95)
    bottom = rgb(hue + 0.08, 0.85, 0.45)
    shape = rgb(hue + 0.5, 0.35, 1.0)
    kind = article_id % 3
    cx = 60 + (article_id * 37) % 200
    cy = 50 + (article_id * 23) % 60
    radius = 28 + (article_id * 11) % 24
    rows = []
    for y in range(HEIGHT):
        row = bytearray()
        for x in range(WIDTH):
            t = min(1.0, (y / HEIGHT) * 0.8 + (x / WIDTH) * 0.2)
            pixel = [int(top[i] + (bottom[i] - top[i]) * t) for i in range(3)]
            if kind == 0 and (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2:
                pixel = list(shape)  # a sun
            elif kind == 1 and y > HEIGHT - 60 + abs(x - cx) // 2 - 40 and y > 90:
                pixel = [c // 2 for c in bottom]  # a hill
            elif kind == 2 and (x + y + article_id * 7) % 48 < 10 and y > 100:
                pixel = list(shape)  # stripes
            row += bytes(pixel)
        rows.append(row)
    return rows


def png(rows):
    raw = bytearray()
    for row in rows:
        # Filter type 1 (Sub): gradients become runs of tiny deltas that deflate well.
        raw.append(1)
        previous = b"\x00\x00\x00"
        for x in range(0, len(row), 3):
            pixel = row[x:x + 3]
            raw += bytes((pixel[i] - previous[i]) & 0xFF for i in range(3))
            previous = pixel

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


def main():
    with open(os.path.join(RESOURCES, "articles", "articles.json"), encoding="utf-8") as f:
        articles = json.load(f)["articles"]
    for article in articles:
        name = article.get("preview_image")
        if not name:
            continue
        tags = article.get("tags") or ["misc"]
        data = png(draw(article["id"], hue_for(tags[0])))
        with open(os.path.join(RESOURCES, "images", name), "wb") as f:
            f.write(data)
        print(name, len(data), "bytes")


if __name__ == "__main__":
    main()
