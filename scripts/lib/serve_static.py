#!/usr/bin/env python3
"""Serves a folder on 127.0.0.1 with CORS headers (test assets for browser tests).

Usage: serve_static.py DIR PORT
"""

import functools
import http.server
import sys


class CorsHandler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args):  # quiet: test output is what matters
        pass


def main() -> None:
    directory, port = sys.argv[1], int(sys.argv[2])
    handler = functools.partial(CorsHandler, directory=directory)
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
