# Attributes each perf sample to the nearest FedNode/Signatures/Activity/Storage frame on its stack.
# Usage: attribute.py PERF_DATA [ROWS]
import sys, subprocess, collections, re
data = sys.argv[1]
out = subprocess.run(["perf", "script", "-i", data, "-F", "comm,tid,ip,sym,dso"], capture_output=True, text=True).stdout
samples = []
cur = None
for line in out.splitlines():
    if not line.strip():
        if cur: samples.append(cur); cur = None
        continue
    if not line.startswith(('\t', ' ')) or re.match(r'^\S', line):
        cur = []
        continue
    m = re.match(r'^\s+([0-9a-f]+)\s+(.*)\s+\((.*)\)$', line)
    if m and cur is not None:
        cur.append((m.group(2), m.group(3)))
if cur: samples.append(cur)
allsyms = sorted({s for smp in samples for s, _ in smp})
dem = dict(zip(allsyms, subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(allsyms), capture_output=True, text=True).stdout.splitlines()))
mods = re.compile(r'\b(FedNode|Signatures|Activity|Storage|Benchmarks)\.|InboxController|InboxAuthenticator|InboxWorker|CreateHandler|PostWriter|HomeTimeline|DeliveryWorker|DeliveryQueue|SignedRequest|RequestSigner|SignatureVerifier|CavageSignature|ASObject|JSONParser|JSONLimits|HTMLSanitizer|KeyResolver|CurlMulti|CurlHTTPClient|CurlTransfer|SeenActivity|InboxItem|Delivery\b|Outbox|PostService|ASToPost|InboundPost|TextParser|RSAPublicKey|RSAPrivateKey|BodyDigest|HTTPDate|Account\b|Post\b')
counts = collections.Counter()
for smp in samples:
    label = None
    for sym, dso in smp:
        d = dem.get(sym, sym)
        if mods.search(d):
            label = re.sub(r'\(.*', '', d.replace('specialized ', '').replace('closure #1 in ', '').replace('partial apply for ', ''))[:110]
            break
    if label is None:
        leaf = dem.get(smp[0][0], smp[0][0]) if smp else '?'
        dso = smp[0][1].split('/')[-1] if smp else '?'
        label = '(no product frame) ' + ('kernel' if 'kernel' in dso else dso)
    counts[label] += 1
total = sum(counts.values())
for k, v in counts.most_common(int(sys.argv[2]) if len(sys.argv) > 2 else 30):
    print(f"{100*v/total:5.1f}%  {k}")
