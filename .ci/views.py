"""Writes a copy of a pathlab project with other views (and optionally start and goal).

usage: views.py IN.ron OUT.ron VIEW... [--ends SX,SY,GX,GY]
VIEW: an algorithm name, NAME@hex:PITCH for a view searching the map as pointy hexes, or
NAME@navmesh for one searching it as a navmesh, NAME@vehicle for one searching it as the
small robot's vehicle lattice (what `--world vehicle` builds).
"""
import re
import sys

args = sys.argv[3:]
ends = None
if "--ends" in args:
    i = args.index("--ends")
    ends = [int(v) for v in args[i + 1].split(",")]
    args = args[:i] + args[i + 2:]
rows = []
for v in args:
    if v.endswith("@navmesh"):
        name, extra = v[: -len("@navmesh")], ", world: Some((Navmesh, Centre))"
        rows.append(f'        (name: "{name}", params: {{}}{extra}),')
        continue
    if v.endswith("@vehicle"):
        car = "(turning_radius: 1.5, lateral: 3.0, accel: 1.0, decel: 2.0, max_speed: 3.0)"
        name = v[: -len("@vehicle")]
        extra = f", world: Some((Vehicle(vehicle: {car}, heading: 10.0, speed: 0.5), Centre))"
        rows.append(f'        (name: "{name}", params: {{}}{extra}),')
        continue
    name, _, world = v.partition("@hex:")
    extra = f", world: Some((Hex(orientation: Pointy, pitch: {float(world)}), Centre))" if world else ""
    rows.append(f'        (name: "{name}", params: {{}}{extra}),')
views = "algorithms: [\n" + "\n".join(rows) + "\n    ]"
text = open(sys.argv[1]).read()
text = re.sub(r"algorithms: \[.*?\n    \]", lambda _: views, text, flags=re.S)
if ends:
    text = text.replace("start: None", f"start: Some(({ends[0]}, {ends[1]}))")
    text = text.replace("goal: None", f"goal: Some(({ends[2]}, {ends[3]}))")
open(sys.argv[2], "w").write(text)
