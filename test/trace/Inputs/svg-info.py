#!/usr/bin/env python3
"""svg-info.py FILE.svg - parse a picture written by parc-trace (which fails
if it is not well-formed XML) and print what the tests check:

    lanes N        one <g class="lane"> per processor
    rows N         Figure-4 panel rows (<g class="dist">)
    mode M         slices (a rectangle per slice) or buckets (aggregated)
    rects N        rectangles in the timeline
    size OK|BIG    under / over the byte limit given as the second argument
"""
import os
import sys
import xml.dom.minidom

doc = xml.dom.minidom.parse(sys.argv[1])
limit = int(sys.argv[2]) if len(sys.argv) > 2 else 3 * 1024 * 1024
groups = doc.getElementsByTagName("g")
byid = {g.getAttribute("id"): g for g in groups if g.getAttribute("id")}
print("svg %s" % doc.documentElement.tagName)
print("lanes %d" % sum(1 for g in groups if g.getAttribute("class") == "lane"))
print("rows %d" % sum(1 for g in groups if g.getAttribute("class") == "dist"))
mode = "slices" if "slices" in byid else "buckets" if "buckets" in byid else "none"
print("mode %s" % mode)
print("rects %d" % len(byid[mode].getElementsByTagName("rect")) if mode in byid else "rects 0")
print("size %s" % ("OK" if os.path.getsize(sys.argv[1]) <= limit else "BIG"))
