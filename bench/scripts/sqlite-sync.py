#!/usr/bin/env python3
# SQLite commit cost, synchronous=NORMAL against FULL, in WAL mode as the server runs it (docs/RELIABILITY.md).
# Usage: bench/scripts/sqlite-sync.py DIR   (DIR on the disk the data directory uses)
import sqlite3, time, os, sys, tempfile
d=tempfile.mkdtemp(dir=sys.argv[1])
for mode in ["NORMAL","FULL","NORMAL","FULL"]:
    path=os.path.join(d,f"b-{mode}-{time.time()}.db")
    c=sqlite3.connect(path, isolation_level=None)
    c.execute("PRAGMA journal_mode=WAL"); c.execute(f"PRAGMA synchronous={mode}")
    c.execute("CREATE TABLE jobs (id INTEGER PRIMARY KEY, status TEXT, progress REAL, updated BIGINT)")
    for i in range(200): c.execute("INSERT INTO jobs (status, progress, updated) VALUES ('queued',0,0)")
    n=2000; t=time.perf_counter()
    for i in range(n):
        c.execute("BEGIN IMMEDIATE"); c.execute("UPDATE jobs SET progress=?, updated=? WHERE id=?", (i/n, i, i%200+1)); c.execute("COMMIT")
    dt=time.perf_counter()-t
    print(f"{mode}: {n} commits in {dt:.2f} s = {n/dt:.0f}/s, {dt/n*1e3:.3f} ms each")
    c.close()
