# Where perf samples went, by component (SQLite, OpenSSL, kernel, Swift runtime, ...).
# Usage: components.py PERF_DATA
import sys, subprocess, collections, re
data = sys.argv[1]
out = subprocess.run(["perf", "script", "-i", data, "-F", "comm,ip,sym,dso", "-G"], capture_output=True, text=True).stdout
# perf script -F sym with -G hides call graph; lines like: "comm  ip sym (dso)"
rows = []
for line in out.splitlines():
    line = line.strip()
    if not line: continue
    m = re.match(r'^(.*?)\s+([0-9a-f]+)\s+(.*)\s+\((.*)\)$', line)
    if not m: continue
    rows.append((m.group(1), m.group(3), m.group(4)))
syms = [r[1] for r in rows]
dem = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(syms), capture_output=True, text=True).stdout.splitlines()
def bucket(sym, dso):
    d = dso.split('/')[-1]
    if 'sqlite' in d: return 'SQLite (libsqlite3)'
    if 'libcrypto' in d: return 'OpenSSL (libcrypto)'
    if 'kernel' in d: return 'kernel (syscalls, scheduling, network)'
    if 'libcurl' in d or 'libnghttp' in d: return 'libcurl'
    s = sym
    if re.search(r'\bGRDB\b|DatabaseValue|StatementArguments|Row\b|FetchableRecord|PersistableRecord|EncodableRecord|Database\w*\.|SerializedDatabase|DatabasePool|DatabaseQueue', s): return 'GRDB (Swift)'
    if re.search(r'NIO|Hummingbird|HTTPTypes|HTTPField|HTTPRequest|HTTPResponse', s): return 'NIO/Hummingbird'
    if re.search(r'Signatures|Cavage|SignatureVerifier|SignableRequest|BodyDigest|HTTPDate|RSAPublicKey|RSAPrivateKey', s): return 'Signatures (Swift side)'
    if re.search(r'Activity\.|ASObject|JSONParser|JSONValue|JSONLimits|HTMLSanitizer|HTMLTokenizer|TextParser|ActivityStreams', s): return 'Activity (JSON, AS2, HTML)'
    if re.search(r'FedNode\.|InboxController|InboxWorker|CreateHandler|PostWriter|DeliveryWorker|KeyResolver', s): return 'FedNode (own code)'
    if re.search(r'Encoder|Decoder|Codable|encode\(to|init\(from|KeyedEncodingContainer|KeyedDecodingContainer|CodingKey|convertToSnakeCase|convertFromSnakeCase|_convert', s): return 'Codable'
    if re.search(r'swift_retain|swift_release|swift_bridgeObject|RefCounts|swift_allocObject|swift_deallocClassInstance|swift_dealloc|_swift_release', s): return 'Swift ARC (retain/release)'
    if re.search(r'swift_task|swift::|Task|Continuation|Executor|StackAllocator|swift_job|Actor', s) or 'Concurrency' in d or 'dispatch' in d: return 'Swift concurrency & dispatch'
    if re.search(r'malloc|free|_int_|calloc|realloc|memmove|memcpy|memset|memcmp|unlink_chunk', s): return 'malloc/memcpy (libc)'
    if re.search(r'getGenericMetadata|getCache|Metadata|tryCast|dynamicCast|swift_conformsTo|instantiate', s): return 'Swift runtime metadata/casts'
    if 'Foundation' in d or 'ICU' in d: return 'Foundation'
    if re.search(r'String|Character|Substring|Unicode|UTF8|_StringGuts|lowercased|Hasher|Dictionary|Set|Array|ContiguousArray', s) or 'swiftCore' in d: return 'Swift stdlib (strings, collections, hashing)'
    if 'libc' in d or 'pthread' in s: return 'libc other (locks, syscalls wrappers)'
    return 'other: ' + d
counts = collections.Counter()
for (comm, sym, dso), d in zip(rows, dem):
    counts[bucket(d, dso)] += 1
total = sum(counts.values())
for k, v in counts.most_common(20):
    print(f"{100*v/total:5.1f}%  {k}")
print("samples", total)
