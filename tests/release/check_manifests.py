#!/usr/bin/env python3
"""Checks the rendered Zed extension and ACP registry entry against a release:
their archive URLs name the release tarball, their cmd is the executable it
unpacks to, their versions are the project's, and they keep the formats' rules
(Zed: schema_version 1, agent_servers targets; registry: id = folder name,
x.y.z version, no /latest/, a supported archive, a 16x16 currentColor icon).
    check_manifests.py RENDERED_DIR VERSION TARBALL UNPACKED_DIR
Prints each problem and exits 1 when there is any."""
import json
import os
import re
import sys
import tomllib
import xml.etree.ElementTree as ET

rendered, version, tarball, unpacked = sys.argv[1:5]
problems = []


def check_target(where, target):
    name = os.path.basename(tarball)
    if not target.get("archive", "").endswith(f"/releases/download/v{version}/{name}"):
        problems.append(f"{where}: archive {target.get('archive')!r} is not the release's {name}")
    if "/latest/" in target.get("archive", ""):
        problems.append(f"{where}: archive must name a version, not /latest/")
    cmd = os.path.normpath(os.path.join(unpacked, target.get("cmd", "")))
    if not (cmd.startswith(unpacked + os.sep) and os.access(cmd, os.X_OK) and os.path.isfile(cmd)):
        problems.append(f"{where}: cmd {target.get('cmd')!r} is not an executable in the unpacked tarball")
    if target.get("args") != ["--acp"]:
        problems.append(f"{where}: args should be ['--acp'], got {target.get('args')!r}")


def check_icon(path):
    root = ET.parse(path).getroot()
    if root.get("width") != "16" or root.get("height") != "16":
        problems.append(f"{path}: the icon must be 16x16")
    for element in root.iter():
        for attr in ("fill", "stroke"):
            value = element.get(attr)
            if value is not None and value not in ("currentColor", "none", "inherit"):
                problems.append(f"{path}: {attr}={value!r}; only currentColor, none or inherit")


with open(os.path.join(rendered, "zed", "extension.toml"), "rb") as f:
    zed = tomllib.load(f)
for key in ("id", "name", "version", "schema_version", "authors", "description", "repository"):
    if key not in zed:
        problems.append(f"extension.toml: no {key}")
if zed.get("version") != version:
    problems.append(f"extension.toml: version {zed.get('version')!r} is not {version}")
if zed.get("schema_version") != 1:
    problems.append("extension.toml: schema_version must be 1")
server = zed.get("agent_servers", {}).get("lathe", {})
if not server.get("name"):
    problems.append("extension.toml: agent_servers.lathe needs a name")
targets = server.get("targets", {})
if set(targets) != {"linux-x86_64"}:
    problems.append(f"extension.toml: targets {sorted(targets)}; the release has linux-x86_64 only")
for platform, target in targets.items():
    check_target(f"extension.toml {platform}", target)
check_icon(os.path.join(rendered, "zed", "icon.svg"))

entry_dir = os.path.join(rendered, "acp-registry", "lathe")
with open(os.path.join(entry_dir, "agent.json")) as f:
    entry = json.load(f)
if entry.get("id") != os.path.basename(entry_dir) or not re.fullmatch(r"[a-z][a-z0-9-]*", entry.get("id", "")):
    problems.append("agent.json: id must be lowercase and match its folder")
if entry.get("version") != version or not re.fullmatch(r"\d+\.\d+\.\d+", entry.get("version", "")):
    problems.append(f"agent.json: version {entry.get('version')!r} is not {version}")
for key in ("name", "description", "distribution"):
    if not entry.get(key):
        problems.append(f"agent.json: no {key}")
binary = entry.get("distribution", {}).get("binary", {})
if set(binary) != {"linux-x86_64"}:
    problems.append(f"agent.json: binary targets {sorted(binary)}; the release has linux-x86_64 only")
for platform, target in binary.items():
    if not re.search(r"\.(zip|tar\.gz|tgz|tar\.bz2|tbz2)$", target.get("archive", "")):
        problems.append(f"agent.json {platform}: unsupported archive format")
    check_target(f"agent.json {platform}", target)
check_icon(os.path.join(entry_dir, "icon.svg"))

for problem in problems:
    print("FAIL:", problem, file=sys.stderr)
sys.exit(1 if problems else 0)
