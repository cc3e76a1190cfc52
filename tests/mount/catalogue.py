# The mounted README.txt describes every name the mount shows, read through
# the kernel with os.walk, by its own list (an implementation apart from
# tree/catalogue.cpp's): every path fits a pattern, every pattern but the
# conditional ones ("only where ...") fits a path, and every file's
# user.gcfs.what is the line it fits.
#   catalogue.py MOUNT
import os
import re
import sys

mount = sys.argv[1]
lines = open(os.path.join(mount, "README.txt")).read().split("\n")
start = next(i for i, l in enumerate(lines) if l.startswith("README.txt "))
entries = []  # (pattern, description)
for line in lines[start:]:
    if not line:
        break
    if line[0] != " ":
        pattern, what = line.split(None, 1)
        entries.append([pattern, what.strip()])
    else:
        entries[-1][1] += " " + line.strip()


def regex(pattern):
    out = ""
    for token in re.split(r"(<[^>]+>)", pattern):
        if token.startswith("<"):
            name = token[1:-1]
            out += r"\d+" if set(name) <= {"n", "N"} else ".+" if name == "path" else "[^/]+"
        else:
            out += re.escape(token).replace("/", r"(?:~\d+)?/")
    return re.compile(out + r"(?:~\d+)?")


compiled = [(p, regex(p)) for p, _ in entries]
paths = []
for root, dirs, files in os.walk(mount):
    rel = os.path.relpath(root, mount)
    prefix = "" if rel == "." else rel + "/"
    # A symlink to a folder is listed among dirs; it is a name, not a folder.
    paths += [prefix + d + ("" if os.path.islink(os.path.join(root, d)) else "/") for d in dirs] + [prefix + f for f in files]
met, problems = {}, []
for path in paths:
    fits = [p for p, r in compiled if r.fullmatch(path)]
    if not fits:
        problems.append("%s: README.txt does not describe it" % path)
        continue
    met[fits[0]] = met.get(fits[0], 0) + 1
    full = os.path.join(mount, path)
    if not path.endswith("/") and not os.path.islink(full):
        what = os.getxattr(full, "user.gcfs.what").decode()
        if not what.startswith(fits[0] + ": "):
            problems.append("%s: user.gcfs.what is %r, README.txt's line is %s" % (path, what, fits[0]))
for pattern, what in entries:
    if pattern not in met and "(only where " not in what:
        problems.append("%s: README.txt describes it, the mount shows no such name" % pattern)
print("\n".join(problems[:40]) if problems else
      "%d names, each fits one of README.txt's %d patterns; every unconditional pattern is met" % (len(paths), len(entries)))
sys.exit(1 if problems else 0)
