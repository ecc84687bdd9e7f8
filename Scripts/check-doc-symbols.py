#!/usr/bin/env python3
"""Fails when the docs name a Swift symbol the project does not declare.

Reads the Markdown that Scripts/check-doc-paths.py reads (README.md, Docs/, Examples/ and
the DocC catalogues Sources/*/*.docc) except CHANGELOG.md and Docs/BenchmarksLog.md, whose
dated entries name symbols as they were when written, and Docs/API/, which is generated. In them it checks every inline
code span (`...`) and DocC symbol link (``...``) that reads as a Swift symbol:
`TypeName`, `TypeName.member`, `TypeName.member(label:other:)`, `member(label:)`,
`.caseName`, `.caseName(label:)`, `Type/member` (DocC's path form), `Generic<Arg>`, a call
such as `AheadBufferPolicy(framesAhead: 1)`, `value.member` (a variable's member) and a
bare camelCase name such as `sharedImageKey`.

The project's declarations are found with regular expressions in the Swift files of
Sources/, Benchmarks/, Examples/, Plugins/, Tests/ and Fuzz/: types, extensions,
typealiases, associated types, functions, initialisers, subscripts, properties and enum
cases, with their argument labels and the type they are declared in. Module and target
names come from the Package.swift files. A span passes when
  - an UpperCamelCase name is declared in the project, is a module, or is in EXTERNAL
    (the few standard library, Foundation and other libraries' names the docs mention);
  - in `A.b.c`, A is a project type or module and each of b, c is declared somewhere in the
    project (loosely: in any type), or A is external (nothing after it is checked);
  - `name(label:other:)` has a function, initialiser or case named `name` whose labels
    contain the span's labels in order (defaulted arguments may be left out; `_` and an
    unlabelled argument match any label; `…` ends the list). `A.name(…)` and `Type(…)`
    (the type's initialiser) look at A's or Type's own declarations first; a type that
    declares no initialiser (a memberwise one) needs labels that name properties;
  - a bare camelCase name is a member, a parameter, or a word of a string literal (the
    JSON keys the tool writes, such as `fileBytes`).
Spans that are not Swift symbols are skipped: anything with a space outside parentheses
(commands, sentences; DocC links excepted), flags, paths, folders and file names,
environment variables and other ALL_CAPS words, numbers, bare lowercase words that are
not camelCase (subcommands, format names), four-letter words (PNG chunks and ISO boxes
such as `acTL`, `iTXt`, `colr`), snake_case and the C names of the libraries the codecs
wrap (libwebp, libavif, libpng, lcms2, TurboJPEG, giflib, libFuzzer), HTTP header names,
other placeholders, and all fenced code blocks (Scripts/check-snippets.sh compiles the
```swift ones). A `<Format>Name` placeholder passes when one format declares its Name
(`GIFCoder`, `WebPCoder`, …).

The tool's command lines are checked too, in code spans and in the fenced blocks that are
not Swift (`zoetrope convert in.gif out.webp --lossy 60`, `.build/release/zoetrope info
FILE`, one command per `|`, `;` or `&&`): the word after `zoetrope` (when it is a
lowercase word) must be one of the commands `Sources/ZoetropeTool/Tool.swift` lists, and
every `--option` one that command's file declares (`valueOptions`/`flagOptions` in
`Sources/ZoetropeTool/Commands/<Name>Command.swift`; `--help` and `--version` always).

Prints each stale span as FILE:LINE: `span` — why, then a summary; exits 1 if any.
`--list` prints every span with what became of it (ok, STALE, skipped) instead."""
import bisect, os, re, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(root)
files = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout.split()

# Names from outside the project that the docs mention: the Swift standard library,
# Foundation, Synchronization and the other image libraries the docs compare with
# (Chromium's ImageDecoder, Nuke's DataCache and ImagePrefetcher, SDWebImage's
# prefetcher). Add a name here only when a document starts to mention it.
EXTERNAL = {
    "AsyncSequence", "AsyncStream", "Bundle", "CancellationError", "ContinuousClock", "Data",
    "DataCache", "Date", "Duration", "FileHandle", "FileManager", "ImageDecoder",
    "ImagePrefetcher", "Int64", "LocalizedError", "MainActor", "Mutex", "NSCache",
    "NSCondition", "SDWebImagePrefetcher", "Sendable", "String", "Synchronization", "Task",
    "Thread", "URLCache", "URLSession", "URLRequest", "URLSessionTask",
    "URLSessionConfiguration", "ImageTask",
}
# Words in backticks that look like types but name HTTP headers, image metadata and a
# field of Linux's /proc/PID/status.
NOT_SWIFT = {"Age", "ETag", "Exif", "Expires", "Location", "VmHWM"}
# Lowercase names from outside the project that the docs mention.
EXTERNAL_MEMBERS = {"fatalError", "localizedDescription", "httpAdditionalHeaders",
                    "httpMaximumConnectionsPerHost", "countOfBytesReceived"}
# C names of the libraries the codecs wrap (giflib, libpng, libwebp, libavif, lcms2,
# TurboJPEG) and of libFuzzer. libwebp's names are listed by family: the project's own
# WebPCoder, WebPEncoder and WebPIndex must still be checked.
C_NAME = re.compile(r"^(?:DGif|EGif|Gif[A-Z]|avif[A-Z]|png_|cms[A-Z]|tj[A-Z]|LLVMFuzzer|"
                    r"WebP(?:Anim(?:De|En)coder|Demux|Mux|Picture|Config|Get|IDecode|Free|Malloc|Data[A-Z]|"
                    r"Decode(?!r)|Encode(?!r)))")

# ---- the project's declarations -------------------------------------------------------
swift_files = [f for f in files if f.endswith(".swift")
               and f.startswith(("Sources/", "Benchmarks/", "Examples/", "Plugins/", "Tests/", "Fuzz/"))]
types = set()        # type, protocol, typealias, associated type and extended type names
members = set()      # every function, property, case and nested type name
callables = {}       # name ("init", "subscript" too) -> [(enclosing type or None, labels)]
parameters = set()   # every parameter's label and name
literal_words = set()  # identifiers inside string literals: the JSON keys the tool writes
ID = r"`?([A-Za-z_]\w*)`?"

def blank(text):
    """Comments removed and string literals emptied, lines kept."""
    def repl(m):
        s = m.group(0)
        if s.startswith('"'):
            literal_words.update(re.findall(r"[A-Za-z_]\w*", s))
        return ('""' if s.startswith('"') else "") + "\n" * s.count("\n")
    return re.sub(r'"""[\s\S]*?"""|"(?:\\.|[^"\\\n])*"|//[^\n]*|/\*[\s\S]*?\*/', repl, text)

def balanced(text, start):
    """The text inside the parentheses opening at text[start] == '('."""
    depth = 0
    for i in range(start, min(len(text), start + 4000)):
        c = text[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
            if depth == 0:
                return text[start + 1:i]
    return ""

def split_top(s):
    """`s` split at its commas outside brackets (the `>` of `->` closes nothing)."""
    parts, depth, cur = [], 0, ""
    for i, c in enumerate(s):
        if c in "([<{":
            depth += 1
        elif c in ")]}" or (c == ">" and s[i - 1:i] != "-"):
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    if cur.strip():
        parts.append(cur)
    return parts

def declared_labels(params, is_subscript=False):
    labels = []
    for p in split_top(params):
        head = [h for h in p.split(":")[0].split()
                if not h.startswith("@") and h not in ("inout", "borrowing", "consuming", "isolated", "sending")]
        parameters.update(head)
        if not head or ":" not in p:
            labels.append("_")                               # `case plays(Int)`
        elif len(head) >= 2:
            labels.append(head[0])
        else:
            labels.append("_" if is_subscript else head[0])
    return labels

def scopes(text):
    """[(position of a brace, innermost type declared around what follows)]."""
    events, stack, pending = [(0, None)], [], None
    for m in re.finditer(r"\b(?:struct|class|enum|actor|protocol|extension)\s+([A-Za-z_][\w.]*)|[{}]", text):
        if m.group(1):
            if m.group(1) not in ("func", "var", "let", "subscript", "init", "case", "static"):
                pending = m.group(1).split(".")[-1]
        elif m.group(0) == "{":
            stack.append(pending or (stack[-1] if stack else None))
            pending = None
            events.append((m.start(), stack[-1]))
        else:
            if stack:
                stack.pop()
            events.append((m.start(), stack[-1] if stack else None))
    return events

for path in swift_files:
    text = blank(open(path, encoding="utf-8").read())
    events = scopes(text)
    positions = [e[0] for e in events]
    def add_callable(name, pos, labels):
        callables.setdefault(name, []).append((events[bisect.bisect(positions, pos) - 1][1], labels))
    for m in re.finditer(r"\b(?:class|struct|enum|protocol|actor|typealias|associatedtype|extension)\s+([A-Za-z_][\w.]*)", text):
        for part in m.group(1).split("."):
            types.add(part)
            members.add(part)
    for m in re.finditer(rf"\bfunc\s+{ID}\s*(?:<[^(]*>)?\s*\(", text):
        members.add(m.group(1))
        add_callable(m.group(1), m.start(), declared_labels(balanced(text, m.end() - 1)))
    for m in re.finditer(r"\b(init|subscript)\s*[?!]?\s*(?:<[^(]*>)?\s*\(", text):
        add_callable(m.group(1), m.start(), declared_labels(balanced(text, m.end() - 1), m.group(1) == "subscript"))
    for m in re.finditer(rf"\b(?:var|let)\s+{ID}", text):
        members.add(m.group(1))
    for m in re.finditer(r"(?m)^[ \t]*(?:@\w+\s+)*(?:indirect\s+)?case\s+([^\n]*)", text):
        # `case a, b`, `case a(Int, label: String)`, `case a = 1`; not `case .x:` or `case let`.
        rest, pos = m.group(1), 0
        if rest.startswith((".", "let ", "var ", '"')):
            continue
        while True:
            cm = re.match(rf"\s*{ID}", rest[pos:])
            if not cm:
                break
            name = cm.group(1)
            members.add(name)
            pos += cm.end()
            if rest[pos:pos + 1] == "(":
                inner = balanced(rest, pos)
                add_callable(name, m.start(), declared_labels(inner))
                pos += len(inner) + 2
            else:
                add_callable(name, m.start(), [])
            eq = re.match(r"\s*=\s*[^,]*", rest[pos:])
            if eq:
                pos += eq.end()
            if rest[pos:pos + 1] != ",":
                break
            pos += 1

# Targets and products (the fuzz package lists its targets in an array of names).
modules = set()
for f in files:
    if os.path.basename(f) == "Package.swift":
        modules.update(re.findall(r'"([A-Za-z][\w-]*)"', open(f, encoding="utf-8").read()))
project_types = types | modules
# Folders of the repository and what the build makes (`.build`, `.swiftpm`): a span
# starting with one is a path.
folders = {p for f in files for p in f.split("/")[:-1]}
if os.path.exists(".gitignore"):
    folders |= {l.strip().strip("/") for l in open(".gitignore", encoding="utf-8") if l.strip() and not l.startswith("#")}

# ---- the tool's commands and their options --------------------------------------------
def literals_in(call):
    """The string literals of every `valueOptions: [...]` and `flagOptions: [...]` in `call`."""
    names = set()
    for m in re.finditer(r"(?:valueOptions|flagOptions):\s*\[", call):
        names.update(re.findall(r'"([^"]+)"', balanced(call, m.end() - 1)))
    return names

tool_dir = "Sources/ZoetropeTool"
tool_commands = {}   # command -> the options its file declares (None: its file is not found)
if os.path.exists(f"{tool_dir}/Tool.swift"):
    for name in re.findall(r'ToolCommand\(\s*name:\s*"([a-z][a-z-]*)"', open(f"{tool_dir}/Tool.swift", encoding="utf-8").read()):
        path = f"{tool_dir}/Commands/{name.capitalize()}Command.swift"
        tool_commands[name] = literals_in(open(path, encoding="utf-8").read()) if os.path.exists(path) else None
TOOL = re.compile(r"^(?:\S*/)?zoetrope$")

def check_command(line):
    """None if `line` runs no `zoetrope` command; otherwise (ok, reason) for its first stale word."""
    results = []
    for part in re.split(r"\|\|?|;|&&|\$\(|`", line.split(" #")[0]):
        words = part.split()
        while words and re.fullmatch(r"[A-Z_]+=\S*", words[0]):      # `IN=/tmp/x zoetrope …`
            words = words[1:]
        if not words or not TOOL.match(words[0]) or not tool_commands:
            continue
        command = words[1] if len(words) > 1 and re.fullmatch(r"[a-z]+", words[1]) else None
        if command and command not in tool_commands:
            results.append((False, f"`zoetrope {command}`: the tool has no such command"))
            continue
        known = {"help", "version"} | (tool_commands.get(command) or set() if command else set())
        if command and tool_commands[command] is None:
            continue
        for word in words[1:]:
            option = re.match(r"--([a-z][a-z0-9-]*)", word)
            if option and option.group(1) not in known:
                where = f"`zoetrope {command}`" if command else "`zoetrope`"
                results.append((False, f"{where} has no option --{option.group(1)}"))
        results.append((True, ""))
    if not results:
        return None
    return next((r for r in results if not r[0]), results[0])

# ---- the docs' spans ------------------------------------------------------------------
docs = [f for f in files if f.endswith(".md") and not f.startswith("Docs/API/") and f != "Docs/BenchmarksLog.md"
        and (f in ("README.md", "Scripts/README.md") or f.startswith(("Docs/", "Examples/")) or ".docc/" in f)]

IDENT = r"[A-Za-z_]\w*"
CHAIN = re.compile(rf"^(?P<dot>\.)?(?P<chain>{IDENT}(?:<[\w<>, .]*>)?(?:\??\.{IDENT})*)"
                   rf"(?:\((?P<args>[^()]*)\))?(?:\s*->\s*(?P<ret>{IDENT}))?$")

def is_upper(name):
    return name[:1].isupper()

def skipped_word(name):
    """Names that are not Swift symbols of any project."""
    return (not re.search(r"[a-z]", name)          # IHDR, VP8X, FILE, K_BIG
            or name in NOT_SWIFT or C_NAME.match(name)
            or ("_" in name.strip("_") and not is_upper(name)))  # cpu_s, pthread_setname_np

def doc_labels(args):
    """Labels of `(a:b:)`, `(_ x:y:)`, `(label: value, other)`, up to a `…`."""
    labels = []
    for part in split_top(args):
        part = part.strip()
        if part in ("…", "...", ""):
            break
        if re.fullmatch(r"(?:\w+(?:\s+\w+)?\s*:)+", part):       # `imageKey:framesAhead:`
            labels += [seg.split()[0] for seg in part.split(":") if seg.strip()]
        else:
            m = re.match(r"(\w+)(?:\s+\w+)?\s*:", part)
            labels.append(m.group(1) if m else "_")
        if part.endswith(("…", "...")):
            break
    return labels

def labels_match(wanted, have):
    """The span's labels in order among the declaration's; `_` matches any one."""
    i = 0
    for w in wanted:
        while i < len(have) and not (w == "_" or have[i] == w):
            i += 1
        if i == len(have):
            return False
        i += 1
    return True

def known_type(name):
    return name in project_types or name in EXTERNAL

FORMATS = ("GIF", "APNG", "WebP", "AVIF", "JPEG")
EXTENSIONS = {"swift", "md", "gif", "png", "apng", "webp", "avif", "jpg", "jpeg", "json", "sh", "py",
              "h", "c", "txt", "log", "dict", "so", "dylib", "a", "o", "pc", "yml", "icc"}

def check_labels(name, owner, args):
    wanted = doc_labels(args)
    found = callables.get(name, [])
    own = [labels for (container, labels) in found if container == owner] if owner else []
    if name == "init" and owner and not own:
        # No initialiser written in the type (a memberwise or inherited one): every label
        # must at least name a property.
        if all(w == "_" or w in members for w in wanted):
            return True, ""
        return False, f"`{owner}` has no initialiser with the labels ({':'.join(wanted)}:)"
    if not found:
        # A property or a case without payload called like a function is stale too.
        return False, f"no function, initialiser or case `{name}(…)` is declared"
    candidates = own or [labels for (_, labels) in found]
    if any(labels_match(wanted, have) for have in candidates):
        return True, ""
    where = f"`{owner}.{name}`" if own else f"`{name}`"
    return False, f"labels do not match: no {where} takes ({':'.join(wanted)}:)"

def check(span, docc):
    """None if the span is not a symbol; otherwise (ok, reason)."""
    s = span.strip()
    first = s.split("/")[0]
    if not docc and ("/" in s or s.startswith(".") or first not in project_types) and (first in folders or first[1:] in folders):
        return None                                          # `Sources/…`, `.build`, `Fuzz`
    m = re.fullmatch(r"<Format>(\w+)", s)                   # `<Format>Coder`: GIFCoder, WebPCoder…
    if m:
        if any(f + m.group(1) in types for f in FORMATS):
            return True, ""
        return False, f"no format declares {'/'.join(f + m.group(1) for f in FORMATS)}"
    m = re.fullmatch(r"(\S+) = (\S+)", s)                   # `DecodingOptions.colorOutput = .stored`
    if m:
        return check(m.group(1), docc)
    if docc:
        s = re.sub(r"-[\w.]+(?=/|$|\()", "", s)            # DocC disambiguation: Foo-swift.struct
        s = s.replace("/", ".")
    elif "/" in s:
        # `Type/member` is DocC's path form; anything else with a slash is a path.
        first = s.split("/")[0]
        if not (re.fullmatch(IDENT, first) and is_upper(first) and not s.endswith("/")):
            return None
        s = s.replace("/", ".")
    s = re.sub(r"^@", "", s)                                 # `@MainActor`
    m = re.fullmatch(r"throws\((\w+)\)", s)                  # `throws(AnimatedImageError)`
    if m:
        s = m.group(1)
    m = CHAIN.match(s)
    if not m:
        return None
    chain = [c.rstrip("?") for c in re.sub(r"<[^>]*>", "", m.group("chain")).split(".")]
    generic_args = re.findall(IDENT, " ".join(re.findall(r"<([^>]*)>", m.group("chain"))))
    args = m.group("args")
    if len(chain) > 1 and chain[-1] in EXTENSIONS and not m.group("dot"):
        return None                                          # `libavif.so`, `Package.swift`
    if any(skipped_word(c) for c in chain):
        return None
    if args is not None and not docc and re.search(r"[^\w\s:,.…_&\[\]?\"!=-]", args):
        return None                                          # an expression such as f(a / b)
    if not m.group("dot") and len(chain) == 1 and args is None and not is_upper(chain[0]):
        # A bare lowercase word is a subcommand, a format, a chunk (`acTL`) or an English
        # word unless it is camelCase: then it names a member, a parameter or a JSON key
        # of the tool's output (which the tool writes as a string literal).
        name = chain[0]
        if not re.search(r"[A-Z]", name) or len(name) == 4 or name in EXTERNAL_MEMBERS:
            return None
        if name in members or name in callables or name in parameters or name in literal_words:
            return True, ""
        return False, f"`{name}` is declared nowhere: no member, parameter or JSON key of that name"
    if chain[0] in ("Self", "self", "super"):
        return None
    # Types named in the span: `Generic<Arg>`, `-> Result`, `attach(to: ManualClock)`.
    arg_types = re.findall(r":\s*([A-Z]\w*)\b(?!\()", args or "")
    for name in generic_args + arg_types + ([m.group("ret")] if m.group("ret") else []):
        if is_upper(name) and not skipped_word(name) and not known_type(name):
            return False, f"`{name}` is not declared"
    head, owner = chain[0], None
    if m.group("dot"):
        pass                                                  # `.caseName`: members only
    elif is_upper(head):
        if head in EXTERNAL:
            return True, ""                                   # `URLSession.shared.data(from:)`
        if not known_type(head):
            return False, f"`{head}` is not declared"
        owner, chain = head, chain[1:]
    elif len(chain) > 1:
        chain = chain[1:]                                     # `value.member`: a variable
    for name in chain[:-1] if args is not None else chain:
        if name not in members:
            return False, f"member `{name}` is not declared"
        owner = name if is_upper(name) else None
    if args is None:
        return True, ""
    if not chain or is_upper(chain[-1]):
        # `Type(label:)`, `Outer.Type()`: the type's initialiser.
        if chain:
            if chain[-1] not in types:
                return False, f"`{chain[-1]}` is not declared"
            owner = chain[-1]
        return check_labels("init", owner, args)
    return check_labels(chain[-1], owner, args)

span_re = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
listing = "--list" in sys.argv[1:]   # every span with what was made of it
problems, checked, checked_docs = [], 0, set()
def record(doc, line, span, result):
    global checked
    if listing:
        print(f"{doc}:{line}: `{span}` " + ("skipped" if result is None else "ok" if result[0] else "STALE"))
    if result is None:
        return
    checked += 1
    checked_docs.add(doc)
    if not result[0]:
        problems.append(f"{doc}:{line}: `{span}` — {result[1]}")

for doc in docs:
    lines = open(doc, encoding="utf-8").read().split("\n")
    fenced, swift = False, False
    for i, line in enumerate(lines):
        if re.match(r"\s*(```|~~~)", line):
            fenced = not fenced
            swift = fenced and "swift" in line
            lines[i] = ""
        elif fenced:
            if not swift:
                record(doc, i + 1, line.strip(), check_command(line.strip()))
            lines[i] = ""
    text = "\n".join(lines)
    # A code span does not cross a blank line.
    for para in re.finditer(r"(?:[^\n]|\n(?!\s*\n))+", text):
        for m in span_re.finditer(para.group(0)):
            span, docc = m.group(2).replace("\n", " "), len(m.group(1)) == 2
            line = text.count("\n", 0, para.start() + m.start()) + 1
            record(doc, line, span, check_command(span) if not docc and TOOL.match(span.split(" ")[0]) else check(span, docc))
for p in problems if not listing else []:
    print(p)
print(f"check-doc-symbols: {checked} symbols in {len(checked_docs)} files checked, {len(problems)} stale")
sys.exit(1 if problems else 0)
