"""Stand-in ACC server for smoke.sh: receives the probe page's reports, answers its two POSTs
(one with CORS headers, one without, as acc serve today), and exits 0 when every report is as
expected, 1 otherwise or when the page has not finished within the time limit."""

import http.server
import json
import sys
import threading
import urllib.parse

EXPECTED = {
    "origin": lambda v: v == "tauri://localhost",
    "signedOut": lambda v: v is None,
    "stored": lambda v: v == "rotated",
    "cleared": lambda v: v is None,
    "clearedTwice": lambda v: v == {"ok": None},
    "empty": lambda v: "error" in v,
    # Only the app's own commands are granted; core plugins are not.
    "coreCommand": lambda v: "not allowed" in v.get("error", ""),
    "withoutCors": lambda v: "error" in v,
    "withCors": lambda v: v == {"ok": 200},
    "done": lambda v: v is True,
}
reports = {}
finished = threading.Event()


class Handler(http.server.BaseHTTPRequestHandler):
    def cors(self):
        if self.path == "/with-cors":
            self.send_header("Access-Control-Allow-Origin", self.headers.get("Origin", ""))
            self.send_header("Access-Control-Allow-Headers", "authorization, content-type")
            self.send_header("Access-Control-Allow-Methods", "POST")

    def do_OPTIONS(self):
        self.send_response(204)
        self.cors()
        self.end_headers()

    def do_POST(self):
        self.send_response(200)
        self.cors()
        self.end_headers()

    def do_GET(self):
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        key, value = query["key"][0], json.loads(query["value"][0])
        reports[key] = value
        print(f"  {key}: {json.dumps(value)}", flush=True)
        self.send_response(204)
        # The report itself is cross-origin too.
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()
        if key == "done":
            finished.set()

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(sys.argv[1], "w") as port_file:
    port_file.write(str(server.server_address[1]))
threading.Thread(target=server.serve_forever, daemon=True).start()
if not finished.wait(timeout=float(sys.argv[2])):
    print("the page did not finish in time", file=sys.stderr)
    sys.exit(1)
failed = [key for key, check in EXPECTED.items() if key not in reports or not check(reports[key])]
for key in failed:
    print(f"unexpected {key}: {json.dumps(reports.get(key, 'no report'))}", file=sys.stderr)
sys.exit(1 if failed else 0)
