"""How long reading a whole novel's file takes in each encoding `import text` accepts, and how
long refusing one with a bad byte in its middle takes (the refusal names the byte's offset,
line and column).

    python benchmarks/decode_speed.py --chars 10000000

A GB18030 or Big5 file is decoded both ways and the decoding with more everyday characters
wins; only the first 100,000 characters of each are scored.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from webnovel.errors import InvalidInput
from webnovel.ingest.text_files import read_text

PARAGRAPH = "　　萧炎望着测验魔石碑，斗之力，三段。萧战叹了口气，他说的是我的心。\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chars", type=int, default=10_000_000)
    args = parser.parse_args()
    text = PARAGRAPH * (args.chars // len(PARAGRAPH))
    utf8 = text.encode("utf-8")
    middle = len(utf8) // 2
    files = {
        "UTF-8": utf8,
        "GB18030": text.encode("gb18030"),
        "UTF-16LE (BOM)": text.encode("utf-16"),
        "UTF-8, one bad byte": utf8[:middle] + b"\xff" + utf8[middle:],
    }
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        for name, data in files.items():
            path = Path(folder) / "novel.txt"
            path.write_bytes(data)
            started = time.perf_counter()
            try:
                _, outcome = read_text(path)
            except InvalidInput as exc:
                outcome = "refused" if f"字节偏移 {middle}" in str(exc) else f"wrong: {exc}"
            seconds = time.perf_counter() - started
            ok &= not outcome.startswith("wrong")
            print(f"{name:20} {len(data) / 1e6:6.1f} MB  {outcome:10} {seconds:.2f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
