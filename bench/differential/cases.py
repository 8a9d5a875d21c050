"""What both differential checks read from their command line:
SQLEARN_PORT MARIADB_PORT [COUNT [SEED]]."""
import random
import sys


def seed():
    """The seed asked for, 1 when none is."""
    return int(sys.argv[4]) if len(sys.argv) > 4 else 1


def connections_and_cases():
    """The connection settings of sqlearn and of MariaDB, the number of
    cases to run and a random source seeded as asked."""
    sq = dict(host="127.0.0.1", port=int(sys.argv[1]), user="root")
    md = dict(host="127.0.0.1", port=int(sys.argv[2]), user="root")
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    return sq, md, count, random.Random(seed())
