#!/usr/bin/env python3
"""Times full-text searches (MATCH ... AGAINST) in sqlearn and MariaDB.

    bench/fulltext.py SQLEARN_PORT MARIADB_PORT [DOCS] [RUNS]

Loads two tables into each server, each with a FULLTEXT index of its text
columns: movies, the titles and genres of the MovieLens movies (the
datasets directory's movielens-small), and docs, DOCS documents (default
100000) each made of three of those titles drawn at random with a fixed
seed. Then runs each query RUNS times (default 5) in each server, checks
that both answer alike (the rows, and each relevance to six digits), and
prints the median seconds of each and their ratio. Last, RUNS times in
each server, it changes one document's text and times the search that
follows the write, then the same search again.
"""
import csv
import os
import random
import statistics
import sys
import time

import pymysql

QUERIES = [
    ("movies", "SELECT movieId FROM movies WHERE MATCH (title, genres) AGAINST ('love')"),
    ("movies", "SELECT movieId FROM movies WHERE MATCH (title, genres) AGAINST ('+star +wars' IN BOOLEAN MODE)"),
    ("docs", "SELECT id FROM docs WHERE MATCH (body) AGAINST ('love')"),
    ("docs", "SELECT id FROM docs WHERE MATCH (body) AGAINST ('star wars')"),
    ("docs", "SELECT id FROM docs WHERE MATCH (body) AGAINST ('+star +wars' IN BOOLEAN MODE)"),
    ("docs", "SELECT id FROM docs WHERE MATCH (body) AGAINST ('dar*' IN BOOLEAN MODE)"),
    ("docs", "SELECT id FROM docs WHERE MATCH (body) AGAINST ('\"star wars\"' IN BOOLEAN MODE)"),
    ("docs", "SELECT id, ROUND(MATCH (body) AGAINST ('night dark'), 6) AS s FROM docs "
             "WHERE MATCH (body) AGAINST ('night dark') ORDER BY s DESC, id LIMIT 10"),
    ("docs", "SELECT COUNT(*) FROM docs WHERE MATCH (body) AGAINST ('+comedy -drama' IN BOOLEAN MODE)"),
]


def titles(datasets):
    with open(os.path.join(datasets, "movielens-small", "movies.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))[1:]
    return [(int(r[0]), r[1], r[2].replace("|", " ")) for r in rows]


def load(port, movies, docs):
    conn = pymysql.connect(host="127.0.0.1", port=port, user="root", autocommit=True, charset="utf8mb4")
    cur = conn.cursor()
    cur.execute("DROP DATABASE IF EXISTS ftb")
    cur.execute("CREATE DATABASE ftb CHARACTER SET utf8mb4")
    cur.execute("USE ftb")
    cur.execute("CREATE TABLE movies (movieId INT PRIMARY KEY, title VARCHAR(255), genres VARCHAR(255), FULLTEXT (title, genres))")
    cur.execute("CREATE TABLE docs (id INT PRIMARY KEY, body TEXT, FULLTEXT (body))")
    for i in range(0, len(movies), 1000):
        cur.executemany("INSERT INTO movies VALUES (%s, %s, %s)", movies[i:i + 1000])
    for i in range(0, len(docs), 1000):
        cur.executemany("INSERT INTO docs VALUES (%s, %s)", docs[i:i + 1000])
    return conn


def run(conn, q, runs):
    cur = conn.cursor()
    times, answer = [], None
    for _ in range(runs):
        start = time.perf_counter()
        cur.execute(q)
        rows = cur.fetchall()
        times.append(time.perf_counter() - start)
        answer = sorted(tuple(round(v, 6) if isinstance(v, float) else v for v in r) for r in rows)
    return statistics.median(times), answer


def main():
    sq_port, md_port = int(sys.argv[1]), int(sys.argv[2])
    ndocs = int(sys.argv[3]) if len(sys.argv) > 3 else 100000
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    datasets = os.environ.get("DATASETS", os.path.join(os.path.dirname(__file__), "..", "..", "shared", "datasets"))
    movies = titles(datasets)
    rng = random.Random(7)
    docs = [(i + 1, " ".join(rng.choice(movies)[1] for _ in range(3))) for i in range(ndocs)]
    conns = {}
    for name, port in (("sqlearn", sq_port), ("mariadb", md_port)):
        start = time.perf_counter()
        conns[name] = load(port, movies, docs)
        print(f"{name}: loaded {len(movies)} movies and {ndocs} documents in {time.perf_counter() - start:.1f} s")
    print(f"\n{'query':<110} {'rows':>6} {'sqlearn':>9} {'mariadb':>9} {'ratio':>7}")
    for table, q in QUERIES:
        secs, answers = {}, {}
        for name, conn in conns.items():
            secs[name], answers[name] = run(conn, q, runs)
        if answers["sqlearn"] != answers["mariadb"]:
            print(f"answers differ for {q}: {answers['sqlearn'][:5]}... against {answers['mariadb'][:5]}...", file=sys.stderr)
        print(f"{q[:110]:<110} {len(answers['mariadb']):>6} {secs['sqlearn']:>9.4f} {secs['mariadb']:>9.4f} {secs['sqlearn'] / secs['mariadb']:>7.2f}")
    q = "SELECT COUNT(*) FROM docs WHERE MATCH (body) AGAINST ('love')"
    print(f"\nafter a write to docs, {q}:")
    for name, conn in conns.items():
        cur = conn.cursor()
        first, again = [], []
        for i in range(runs):
            cur.execute("UPDATE docs SET body = %s WHERE id = 1", (f"a love story, take {i}",))
            for times in (first, again):
                start = time.perf_counter()
                cur.execute(q)
                cur.fetchall()
                times.append(time.perf_counter() - start)
        print(f"{name}: first search {statistics.median(first):.4f} s, the next {statistics.median(again):.4f} s")


if __name__ == "__main__":
    main()
