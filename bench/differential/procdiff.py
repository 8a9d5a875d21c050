"""Differential check of stored procedures: random procedures over a small
table pz.t and a log table pz.log, each created and then called once, with
random arguments, on sqlearn and on MariaDB. A procedure mixes local
variables of three types with defaults; SET of locals, parameters and user
variables; IF, simple and searched CASE (with and without ELSE); labelled
WHILE, REPEAT and LOOP with LEAVE and ITERATE; SELECT ... INTO of zero,
one or several rows; cursors read until a NOT FOUND handler says they are
done; nested blocks; CONTINUE and EXIT handlers (for SQLEXCEPTION, NOT
FOUND, an error code, a SQLSTATE or a declared condition, with a body of
one statement or a block); statements that fail on purpose (a duplicate
key, a missing table, a NULL or a word in a number column, text too long
for its column or variable); SIGNAL and RESIGNAL; GET DIAGNOSTICS in
handlers; and transactions begun, committed and rolled back in the body.
Messages written to pz.log hold only variables and constants.

After each CALL it compares the CALL's outcome (the error code, or OK)
and the result sets it answered with (the procedure's bare SELECTs),
the user variables given for OUT and INOUT parameters and those the
procedure sets, the messages in pz.log in the order they were written and
the rows of pz.t, then both tables again after a ROLLBACK, which shows
what the procedure left uncommitted. A case that differs is printed with
its procedure and both sides. The schema and the user variables are set
up again before every case.

Left out, as places where MySQL and MariaDB differ: the table a duplicate
key's message names ('t.PRIMARY' in MySQL, 'PRIMARY' in MariaDB), the
column an incorrect value's message names (MariaDB adds its schema and
table) and that error's SQLSTATE (HY000 in MySQL, 22007 in MariaDB), the
row that an error about a variable or a parameter names (MariaDB counts
them its own way), and a decimal zero in a user variable (which MariaDB
keeps as 0, not 0.00): all are read the MySQL way before comparing. An
average put in a user variable is cut to two places (MariaDB keeps more of
it than MySQL). Never generated: a subquery that reads the table its
statement writes (MySQL refuses it, MariaDB does not), a cursor opened in a handler while one of the block the
condition left is still open (MariaDB takes the two for one) and GET
STACKED DIAGNOSTICS (MariaDB 10.11 has none). Also left out: the text of a
CALL's error (its code is compared), and auto-increment values after
failed statements (pz.log is compared by its messages only).

A CREATE PROCEDURE that MariaDB refuses is a fault of this generator: it
is printed, and counted apart from the differences. The exit status is 0
whatever is found: this is a report, not a test.

Usage: procdiff.py SQLEARN_PORT MARIADB_PORT [COUNT [SEED]]
"""

import decimal
import re

import pymysql

from cases import connections_and_cases

SQ, MD, N, rng = connections_and_cases()

SETUP = [
    "DROP DATABASE IF EXISTS pz",
    "CREATE DATABASE pz",
    "CREATE TABLE pz.t (id INT PRIMARY KEY, a INT, b VARCHAR(10))",
    "CREATE TABLE pz.log (n INT AUTO_INCREMENT PRIMARY KEY, msg VARCHAR(200))",
    "INSERT INTO pz.t VALUES (1, 10, 'x'), (2, 20, 'y'), (3, NULL, NULL), (4, 40, 'zz')",
]
USER_VARS = ["@u1", "@u2", "@u3"]
# The user variables the CALL passes for OUT and INOUT parameters are
# cleared before each case, so that no case sees what one before it left.
USER_INIT = "SET @u1 = 1, @u2 = 'u', @u3 = NULL, " + ", ".join(f"@o{i} = NULL" for i in range(1, 10))

TYPES = {"int": ["INT"], "str": ["VARCHAR(3)", "VARCHAR(10)", "VARCHAR(20)"], "dec": ["DECIMAL(6,2)"]}
LITS = {
    "int": ["0", "1", "2", "3", "4", "5", "-1", "7", "NULL"],
    "str": ["'x'", "'y'", "'zz'", "''", "'abc'", "NULL", "'long text'"],
    "dec": ["0.00", "1.25", "2.50", "-0.75", "NULL", "9.99"],
}

# Handler conditions: the text after FOR, and what it stands for (handlers
# of one block must stand for different conditions).
HANDLER_FOR = [
    ("SQLEXCEPTION", "SQLEXCEPTION"),
    ("NOT FOUND", "NOT FOUND"),
    ("1062", "1062"),
    ("1146", "1146"),
    ("1048", "1048"),
    ("1366", "1366"),
    ("1406", "1406"),
    ("1339", "1339"),
    ("1172", "1172"),
    ("SQLSTATE '23000'", "23000"),
    ("SQLSTATE '45000'", "45000"),
]
CONDITION_FOR = [("SQLSTATE '45000'", "45000"), ("SQLSTATE '23000'", "23000"), ("1062", "1062"), ("1146", "1146")]


def pick(xs):
    return rng.choice(xs)


def chance(p):
    return rng.random() < p


class Scope:
    """What the statements of a block can name: variables (name to type,
    and whether random statements may assign them), labels (name to
    whether it is a loop's), declared conditions (name to the SQLSTATE or
    code it stands for) and whether they run inside a handler."""

    def __init__(self, parent=None, handler=False):
        self.vars = dict(parent.vars) if parent else {}
        self.labels = dict(parent.labels) if parent else {}
        self.conds = dict(parent.conds) if parent else {}
        self.handler = handler or (parent.handler if parent else False)
        if handler:
            self.labels = {}  # a handler's body leaves no block outside it

    def of(self, typ, writable=False):
        return [n for n, (t, w) in self.vars.items() if t == typ and (w or not writable)]


class Generator:
    def __init__(self):
        self.n = 0
        # Whether expressions may read pz.t in a subquery: not in a
        # statement that writes pz.t, which MySQL refuses (error 1093)
        # where MariaDB allows it.
        self.reads = True

    def name(self, prefix):
        self.n += 1
        return f"{prefix}{self.n}"

    # Expressions.

    def expr(self, sc, typ, d=0):
        names = sc.of(typ)
        if d > 1 or chance(0.4):
            if names and chance(0.6):
                return pick(names)
            return pick(LITS[typ])
        if typ == "int":
            a = self.expr(sc, "int", d + 1)
            k = rng.randrange(9)
            if k == 0:
                return f"{a} + 1"
            if k == 1:
                return f"IFNULL({a}, 0) + {self.expr(sc, 'int', d + 1)}"
            if k == 2:
                return f"{a} * 2"
            if k == 3 and self.reads:
                return "(SELECT COUNT(*) FROM pz.t)"
            if k == 4 and self.reads:
                return f"(SELECT MAX(id) FROM pz.t WHERE a > {pick(LITS['int'])})"
            if k == 5:
                return f"CHAR_LENGTH({self.expr(sc, 'str', d + 1)})"
            if k == 6:
                return f"ROUND({self.expr(sc, 'dec', d + 1)})"
            if k == 7:
                return f"COALESCE({a}, {pick(LITS['int'])})"
            return f"{a} - {self.expr(sc, 'int', d + 1)}"
        if typ == "str":
            a = self.expr(sc, "str", d + 1)
            k = rng.randrange(5)
            if k == 0:
                return f"CONCAT({a}, {pick(LITS['str'])})"
            if k == 1:
                return f"CONCAT_WS('-', {a}, {self.expr(sc, 'int', d + 1)})"
            if k == 2:
                return f"LEFT(IFNULL({a}, 'n'), 2)"
            if k == 3 and self.reads:
                return f"(SELECT b FROM pz.t WHERE id = {pick(['1', '2', '3', '4', '9'])})"
            return f"UPPER({a})"
        a = self.expr(sc, "dec", d + 1)
        # An average is cut to two places: MariaDB keeps more of it in a
        # user variable than MySQL's four.
        return pick([f"{a} + 0.75", f"{a} * 2", f"IFNULL({a}, 1.50) - {self.expr(sc, 'dec', d + 1)}",
                     f"{self.expr(sc, 'int', d + 1)} + 0.25",
                     "TRUNCATE((SELECT AVG(a) FROM pz.t), 2)" if self.reads else f"{a} - 1"])

    def cond(self, sc, d=0):
        k = rng.randrange(8)
        if k == 0 and d < 1:
            return f"({self.cond(sc, d + 1)}) {pick(['AND', 'OR'])} ({self.cond(sc, d + 1)})"
        if k == 1 and d < 1:
            return f"NOT ({self.cond(sc, d + 1)})"
        if k == 2:
            return f"EXISTS (SELECT 1 FROM pz.t WHERE id = {self.expr(sc, 'int', 1)})"
        if k == 3:
            return f"{pick(sc.of('str') or ['NULL'])} {pick(['=', '<>'])} {pick(LITS['str'])}"
        if k == 4:
            typ = pick(["int", "str", "dec"])
            return f"{pick(sc.of(typ) or ['NULL'])} IS {pick(['', 'NOT '])}NULL"
        if k == 5:
            return f"{self.expr(sc, 'dec', 1)} > {pick(LITS['dec'])}"
        return f"{self.expr(sc, 'int', 1)} {pick(['=', '<', '>', '<=', '<>'])} {self.expr(sc, 'int', 1)}"

    # Statements, each a list of lines: a simple statement one line ending
    # in a semicolon, a compound one its lines with its body indented.

    def log(self, sc, tag=None):
        tag = tag or self.name("s")
        shown = [n for n in sc.vars if chance(0.4)][:5]
        return [f"INSERT INTO pz.log (msg) VALUES (CONCAT_WS(',', '{tag}', {', '.join(shown + [repr(tag)])}));"]

    def assign(self, sc):
        k = rng.randrange(4)
        if k == 0:
            return [f"SET {pick(USER_VARS)} = {self.expr(sc, pick(['int', 'str', 'dec']))};"]
        typ = pick(["int", "int", "str", "dec"])
        names = sc.of(typ, writable=True)
        if not names:
            return [f"SET @u1 = {self.expr(sc, 'int')};"]
        if k == 1 and len(names) > 1:
            x, y = rng.sample(names, 2)
            return [f"SET {x} = {self.expr(sc, typ)}, {y} = {self.expr(sc, typ)};"]
        return [f"SET {pick(names)} = {self.expr(sc, typ)};"]

    def dml(self, sc):
        """A write to pz.t that may succeed, perhaps followed by reading
        its ROW_COUNT()."""
        k = rng.randrange(8)
        self.reads = False
        i, s = self.expr(sc, "int", 1), self.expr(sc, "str", 1)
        self.reads = True
        out = [[
            f"INSERT INTO pz.t VALUES ({pick(['5', '6', '7', '8'] + sc.of('int'))}, {i}, {s});",
            f"UPDATE pz.t SET a = IFNULL(a, 0) + {pick(['1', '2', '-1'])} WHERE id {pick(['=', '<', '>='])} {i};",
            f"UPDATE pz.t SET b = {s} WHERE id = {i};",
            f"DELETE FROM pz.t WHERE id = {i};",
            f"INSERT INTO pz.t (id, a) SELECT MAX(id) + 1, {i} FROM pz.t;",
            f"INSERT INTO pz.t VALUES ({pick(['9', '10', '11'])}, {i}, {s})"
            " ON DUPLICATE KEY UPDATE a = IFNULL(a, 0) + 100;",
            f"DELETE FROM pz.t WHERE a > {i} ORDER BY id LIMIT 1;",
            f"UPDATE pz.t SET a = {i}, b = {s} WHERE id IN (1, 3);",
        ][k]]
        ints = sc.of("int", writable=True)
        if ints and chance(0.3):
            out.append(f"SET {pick(ints)} = ROW_COUNT();")
        return out

    def failing(self, sc):
        return [pick([
            "INSERT INTO pz.t VALUES (1, 0, 'dup');",
            "INSERT INTO pz.t (id, a, b) VALUES (2, 2, 'dup'), (1, 1, 'd');",
            "UPDATE pz.t SET id = 2 WHERE id = 1;",
            "INSERT INTO pz.missing VALUES (1);",
            "UPDATE pz.nothere SET x = 1;",
            "INSERT INTO pz.t VALUES (NULL, 1, 'n');",
            "UPDATE pz.t SET id = NULL WHERE id = 4;",
            "INSERT INTO pz.t (id, a) VALUES (12, 'abc');",
            "UPDATE pz.t SET a = 'word' WHERE id = 2;",
            "UPDATE pz.t SET b = 'much too long' WHERE id = 2;",
        ])]

    def signal(self, sc):
        """SIGNAL of an exception, a warning (which goes on) or a declared
        condition (only those declared FOR a SQLSTATE can be signalled)."""
        conds = [c for c, v in sc.conds.items() if v in ("45000", "23000")]
        errno = rng.randrange(5000, 5010)
        k = rng.randrange(5)
        if k == 0 and conds:
            return [f"SIGNAL {pick(conds)} SET MESSAGE_TEXT = 'cond {errno}';"]
        if k == 1:
            return ["SIGNAL SQLSTATE '23000' SET MESSAGE_TEXT = 'fake dup', MYSQL_ERRNO = 1062;"]
        if k == 2:
            return ["SIGNAL SQLSTATE '45000';"]
        if k == 3:
            return [f"SIGNAL SQLSTATE '01000' SET MESSAGE_TEXT = 'just a warning', MYSQL_ERRNO = {errno};"]
        return [f"SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'signal {errno}', MYSQL_ERRNO = {errno};"]

    def resignal(self, sc):
        return [pick([
            "RESIGNAL;",
            "RESIGNAL SET MESSAGE_TEXT = 'resignalled';",
            f"RESIGNAL SET MYSQL_ERRNO = {rng.randrange(5100, 5110)};",
            "RESIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'changed', MYSQL_ERRNO = 5200;",
        ])]

    def select_into(self, sc):
        """SELECT ... INTO of zero, one or several rows, perhaps followed
        by reading its ROW_COUNT()."""
        ints, strs, decs = sc.of("int", True), sc.of("str", True), sc.of("dec", True)
        i = self.expr(sc, "int", 1)
        forms = []
        # The first form may find several rows (error 1172, after the first
        # row is stored), in the order given.
        if ints:
            forms += [
                f"SELECT id INTO {pick(ints)} FROM pz.t WHERE a > {i} ORDER BY id",
                f"SELECT id INTO {pick(ints)} FROM pz.t WHERE id = {i}",
                f"SELECT MAX(a) INTO {pick(ints)} FROM pz.t WHERE id > {i}",
                f"SELECT id INTO {pick(ints)} FROM pz.t ORDER BY id DESC LIMIT 1",
            ]
            if len(ints) > 1:
                x, y = rng.sample(ints, 2)
                forms.append(f"SELECT COUNT(*), SUM(a) INTO {x}, {y} FROM pz.t WHERE a IS NOT NULL")
            if strs:
                forms.append(f"SELECT a, b INTO {pick(ints)}, {pick(strs)} FROM pz.t WHERE id = {i}")
        if strs:
            forms.append(f"SELECT b INTO {pick(strs)} FROM pz.t WHERE id {pick(['=', '>'])} {i} ORDER BY id LIMIT 1")
        if decs:
            forms.append(f"SELECT AVG(a) INTO {pick(decs)} FROM pz.t")
        forms.append(f"SELECT COUNT(*) INTO @u1 FROM pz.t WHERE id > {i}")
        out = [pick(forms) + ";"]
        if ints and chance(0.15):
            out.append(f"SET {pick(ints)} = ROW_COUNT();")
        return out

    def select(self, sc):
        """A bare SELECT, whose rows are a result set of the CALL's answer
        (every column named, so that no name depends on how a server
        writes an expression)."""
        i = self.expr(sc, "int", 1)
        return [pick([
            f"SELECT {self.expr(sc, 'int')} AS i, {self.expr(sc, 'str')} AS s, {self.expr(sc, 'dec')} AS d;",
            f"SELECT id, a, b FROM pz.t WHERE a > {i} ORDER BY id;",
            f"SELECT COUNT(*) AS n, SUM(a) AS total FROM pz.t WHERE id > {i};",
            f"SELECT msg FROM pz.log ORDER BY n DESC LIMIT 2;",
        ])]

    def transaction(self, sc):
        return [pick(["START TRANSACTION", "START TRANSACTION", "COMMIT", "ROLLBACK", "SAVEPOINT sp1",
                      "ROLLBACK TO SAVEPOINT sp1"]) + ";"]

    def jump(self, sc):
        loops = [l for l, is_loop in sc.labels.items() if is_loop]
        if loops and chance(0.5):
            return [f"IF {self.cond(sc)} THEN ITERATE {pick(loops)}; END IF;"]
        return [f"IF {self.cond(sc)} THEN LEAVE {pick(list(sc.labels))}; END IF;"]

    def if_(self, sc, d):
        out = [f"IF {self.cond(sc)} THEN"] + self.body(sc, d)
        for _ in range(rng.randrange(3)):
            out += [f"ELSEIF {self.cond(sc)} THEN"] + self.body(sc, d)
        if chance(0.5):
            out += ["ELSE"] + self.body(sc, d)
        return out + ["END IF;"]

    def case(self, sc, d):
        """A simple or searched CASE, without ELSE half the time (so that
        no branch taken is error 1339)."""
        if chance(0.5):
            out = [f"CASE {self.expr(sc, 'int', 1)}"]
            for v in rng.sample(["0", "1", "2", "3", "4", "5", "10", "NULL"], rng.randrange(1, 4)):
                out += [f"  WHEN {v} THEN"] + nest(self.body(sc, d))
        else:
            out = ["CASE"]
            for _ in range(rng.randrange(1, 4)):
                out += [f"  WHEN {self.cond(sc)} THEN"] + nest(self.body(sc, d))
        if chance(0.5):
            out += ["  ELSE"] + nest(self.body(sc, d))
        return out + ["END CASE;"]

    def loop(self, sc, d):
        """A labelled loop in a block of its own that declares its counter;
        the counter, counted first thing in each round, leaves the loop
        after a few rounds whatever else the round does."""
        label, i = self.name("l"), self.name("i")
        inner = Scope(sc)
        inner.vars[i] = ("int", False)
        inner.labels[label] = True
        body = nest([f"SET {i} = {i} + 1;", f"IF {i} > {rng.randrange(1, 5)} THEN LEAVE {label}; END IF;"]
                    + self.statements(inner, d + 1, rng.randrange(1, 4)))
        k = rng.randrange(3)
        if k == 0:
            out = [f"{label}: WHILE {pick([f'{i} < 3', 'TRUE', self.cond(inner)])} DO"] + body + [f"END WHILE {label};"]
        elif k == 1:
            out = [f"{label}: REPEAT"] + body + [f"UNTIL {pick([f'{i} >= 2', 'FALSE', self.cond(inner)])}",
                                                 f"END REPEAT {label};"]
        else:
            out = [f"{label}: LOOP"] + body + [f"END LOOP {label};"]
        return ["BEGIN"] + nest([f"DECLARE {i} INT DEFAULT 0;"] + out) + ["END;"]

    def cursor(self, sc, d):
        """A block reading pz.t through a cursor until its NOT FOUND
        handler says it is done, logging each row."""
        done, cid, ca, cb, cur, label = (self.name(p) for p in ("done", "cid", "ca", "cb", "cur", "r"))
        inner = Scope(sc)
        inner.vars.update({cid: ("int", False), ca: ("int", False), cb: ("str", False)})
        inner.labels[label] = True
        where = pick(["", " WHERE a IS NOT NULL", f" WHERE id > {self.expr(sc, 'int', 1)}"])
        order = pick(["id", "id DESC", "a, id"])
        body = self.statements(inner, d + 2, rng.randrange(0, 2), tables=False)
        return ["BEGIN"] + nest([
            f"DECLARE {done} INT DEFAULT 0;",
            f"DECLARE {cid} INT;",
            f"DECLARE {ca} INT;",
            f"DECLARE {cb} VARCHAR(10);",
            f"DECLARE {cur} CURSOR FOR SELECT id, a, b FROM pz.t{where} ORDER BY {order};",
            f"DECLARE CONTINUE HANDLER FOR NOT FOUND SET {done} = 1;",
            f"OPEN {cur};",
            f"{label}: LOOP",
        ] + nest([
            f"FETCH {cur} INTO {cid}, {ca}, {cb};",
            f"IF {done} = 1 THEN LEAVE {label}; END IF;",
            f"INSERT INTO pz.log (msg) VALUES (CONCAT_WS(',', 'row', {cid}, {ca}, {cb}));",
        ] + body) + [f"END LOOP {label};", f"CLOSE {cur};"]) + ["END;"]

    def statement(self, sc, d, tables=True):
        kinds = ["assign"] * 4 + ["log"] * 3 + ["select_into"] * 2 + ["signal"]
        if tables:
            kinds += ["dml"] * 3 + ["failing"] * 3 + ["transaction", "select"]
        if sc.labels:
            kinds += ["jump"] * 2
        if sc.handler:
            kinds += ["resignal"]
        if d < 3:
            # No cursor in a handler: MariaDB takes one opened there for
            # a cursor of the block the condition left, still open.
            kinds += ["if_", "case", "loop", "block"] + (["cursor"] if tables and not sc.handler else [])
        k = pick(kinds)
        if k in ("if_", "case", "loop", "cursor"):
            return getattr(self, k)(sc, d + 1)
        if k == "block":
            return self.block(sc, d + 1)
        return getattr(self, k)(sc)

    def statements(self, sc, d, count, tables=True):
        out = []
        for _ in range(count):
            out += self.statement(sc, d, tables)
        return out

    def body(self, sc, d):
        return nest(self.statements(sc, d + 1, rng.randrange(1, 3)))

    # Blocks and handlers.

    def handler(self, sc, taken, d):
        """A handler for a condition no other handler of its block takes,
        or nothing when none is left. Its GET DIAGNOSTICS come first, while
        the condition that woke it is still the one to read."""
        choices = [(f, v) for f, v in HANDLER_FOR if v not in taken]
        choices += [(c, v) for c, v in sc.conds.items() if v not in taken]
        if not choices:
            return []
        what, value = pick(choices)
        taken.add(value)
        inner = Scope(sc, handler=True)
        head = f"DECLARE {pick(['CONTINUE', 'EXIT'])} HANDLER FOR {what}"
        tag = self.name("h")
        ints = sc.of("int", True)
        diag = []
        if chance(0.3):
            diag.append(f"GET DIAGNOSTICS {pick(ints + USER_VARS)} = {pick(['NUMBER', 'ROW_COUNT'])};")
        if value != "NOT FOUND" and chance(0.7):
            users = rng.sample(USER_VARS, 3)
            items = [f"{pick(ints + users[:1])} = MYSQL_ERRNO", f"{users[1]} = RETURNED_SQLSTATE",
                     f"{users[2]} = MESSAGE_TEXT"]
            chosen = [x for x in items if chance(0.7)] or [items[0]]
            diag.append(f"GET DIAGNOSTICS CONDITION 1 {', '.join(chosen)};")
        if chance(0.35) and len(diag) <= 1:
            # A body of one statement.
            return [f"{head} {diag[0] if diag else self.log(inner, tag)[0]}"]
        body = diag + [f"INSERT INTO pz.log (msg) VALUES (CONCAT_WS(',', '{tag}', {', '.join(USER_VARS)}));"]
        body += self.statements(inner, d + 2, rng.randrange(0, 3), tables=chance(0.5))
        if chance(0.2):
            body += self.resignal(inner)
        return [head, "BEGIN"] + nest(body) + ["END;"]

    def block(self, sc, d, top=False):
        """BEGIN ... END, perhaps labelled, with its own variables,
        conditions and handlers before its statements."""
        inner = Scope(sc)
        decls = []
        for _ in range(rng.randrange(1 if top else 0, 5 if top else 3)):
            typ = pick(["int", "int", "str", "dec"])
            v = self.name("v")
            default = f" DEFAULT {pick(LITS[typ] + inner.of(typ))}" if chance(0.8) else ""
            decls.append(f"DECLARE {v} {pick(TYPES[typ])}{default};")
            inner.vars[v] = (typ, True)
        for _ in range(rng.randrange(2) if d < 3 else 0):
            c = self.name("c")
            text, value = pick(CONDITION_FOR)
            decls.append(f"DECLARE {c} CONDITION FOR {text};")
            inner.conds[c] = value
        taken = set()
        for _ in range(rng.randrange(4 if top else 3)):
            decls += self.handler(inner, taken, d)
        label = ""
        if chance(0.3) and not top:
            label = self.name("b")
            inner.labels[label] = False
        body = self.statements(inner, d, rng.randrange(1, 7 if top else 4))
        if top and chance(0.7):
            body += self.log(inner, "end")
        head = f"{label}: BEGIN" if label else "BEGIN"
        return [head] + nest(decls + body) + [f"END {label}".rstrip() + ("" if top else ";")]

    def procedure(self):
        """The CREATE PROCEDURE text, the CALL that runs it, the user
        variables that stand for its OUT and INOUT parameters and the SET
        that gives them their first values."""
        sc = Scope()
        params, args, sets, outs = [], [], [], []
        for _ in range(rng.randrange(4)):
            mode = pick(["IN", "IN", "OUT", "INOUT"])
            typ = pick(["int", "int", "str", "dec"])
            name = self.name("p" if mode == "IN" else "o")
            params.append(f"{mode} {name} {pick(TYPES[typ])}")
            sc.vars[name] = (typ, mode != "IN" or chance(0.3))
            if mode == "IN":
                args.append(pick(LITS[typ] + (["'word'"] if typ != "str" else [])))
            else:
                var = f"@{name}"
                args.append(var)
                outs.append(var)
                sets.append(f"{var} = {pick(LITS[typ]) if mode == 'INOUT' else pick(['NULL', '99'])}")
        body = self.block(sc, 0, top=True)
        text = "CREATE PROCEDURE pz.p(" + ", ".join(params) + ")\n" + "\n".join(body)
        return text, f"CALL pz.p({', '.join(args)})", outs, ("SET " + ", ".join(sets)) if sets else None


def nest(lines):
    return ["  " + line for line in lines]


# Comparing.

def normal(v):
    """A value as compared: text, with the places where MySQL and MariaDB
    word the same error differently read the MySQL way."""
    if v is None:
        return None
    if isinstance(v, (bytes, bytearray)):
        v = v.decode("utf-8", "replace")
    if isinstance(v, float):
        v = f"{v:.10g}"
    if isinstance(v, decimal.Decimal):
        v = str(v)
    v = str(v)
    v = re.sub(r"for key '\w+\.PRIMARY'", "for key 'PRIMARY'", v)
    v = re.sub(r"for column `[^`]*`\.`[^`]*`\.`([^`]*)`", r"for column '\1'", v)
    v = re.sub(r"(for column '(?!(?:id|a|b)')[^']*') at row \d+", r"\1 at row 1", v)
    v = re.sub(r"(?<![\w.])-?0\.0+(?![\w.])", "0", v)
    return v.replace("22007", "HY000")


class Side:
    def __init__(self, name, params):
        self.name, self.params, self.conn = name, params, None

    def connect(self):
        if self.conn is not None:
            try:
                self.conn.close()
            except pymysql.err.Error:
                pass
        self.conn = pymysql.connect(**self.params, autocommit=True, read_timeout=30)

    def run(self, q):
        """The outcome of q: ("ok",) or ("error", code, message); sets is
        left holding the result sets it answered with before that, each
        its column names and rows."""
        self.sets = []
        try:
            cur = self.conn.cursor()
            cur.execute(q)
            while True:
                if cur.description:
                    names = tuple(d[0] for d in cur.description)
                    self.sets.append((names, [tuple(normal(v) for v in r) for r in cur.fetchall()]))
                if not cur.nextset():
                    break
            return ("ok",)
        except pymysql.err.OperationalError as e:
            if e.args[0] in (2006, 2013, 2014):
                self.connect()
                return ("lost", e.args[0], str(e.args[1:]))
            return ("error", e.args[0], normal(e.args[1]) if len(e.args) > 1 else "")
        except pymysql.err.MySQLError as e:
            return ("error", e.args[0], normal(e.args[1]) if len(e.args) > 1 else "")

    def rows(self, q):
        try:
            cur = self.conn.cursor()
            cur.execute(q)
            return [tuple(normal(v) for v in r) for r in cur.fetchall()]
        except pymysql.err.MySQLError as e:
            if isinstance(e, pymysql.err.OperationalError) and e.args[0] in (2006, 2013, 2014):
                self.connect()
            return [("error", e.args[0])]

    def setup(self):
        """The schema and the user variables as every case starts them
        (a transaction the last CALL left open rolled back first)."""
        cur = self.conn.cursor()
        cur.execute("ROLLBACK")
        for q in SETUP + [USER_INIT]:
            cur.execute(q)

    def state(self, outs):
        """What the CALL left: the variables, the log's messages in the
        order written and the table, as seen inside the session and again
        after a ROLLBACK."""
        names = outs + USER_VARS
        out = {"vars": self.rows("SELECT " + ", ".join(names)),
               "log": self.rows("SELECT msg FROM pz.log ORDER BY n"),
               "t": self.rows("SELECT * FROM pz.t ORDER BY id")}
        self.run("ROLLBACK")
        out["log after rollback"] = self.rows("SELECT msg FROM pz.log ORDER BY n")
        out["t after rollback"] = self.rows("SELECT * FROM pz.t ORDER BY id")
        return out


def show(case, what, text, outcomes, states=None):
    print(f"DIFF case {case}: {what}")
    if text:
        print(text)
    for side, outcome in zip(("sqlearn", "mariadb"), outcomes):
        print(f"  outcome {side}: {outcome}")
    for key in states[0] if states else []:
        if states[0][key] != states[1][key]:
            print(f"  {key} sqlearn: {states[0][key]}")
            print(f"  {key} mariadb: {states[1][key]}")
    print()


def check(case, sides):
    """Runs one case on both sides and prints it when they differ: "same",
    "differ", or "refused" for a procedure MariaDB does not take."""
    text, call, outs, sets = Generator().procedure()
    for s in sides:
        s.setup()
    if sets:
        before = [s.run(sets) for s in sides]
        if before[0][:2] != before[1][:2]:
            show(case, sets, None, before)
            return "differ"
    created = [s.run(text) for s in sides]
    if created[1][0] != "ok":
        print(f"GENERATOR case {case}: MariaDB refused the procedure: {created[1]}")
        print(text)
        print()
        return "refused"
    if created[0][0] != "ok":
        show(case, "CREATE PROCEDURE", text, created)
        return "differ"
    called = [s.run(call) for s in sides]
    answered = [s.sets for s in sides]
    states = [s.state(outs) for s in sides]
    if answered[0] != answered[1]:
        states[0]["result sets"], states[1]["result sets"] = answered
    if called[0][:2] != called[1][:2] or states[0] != states[1]:
        show(case, call + (f" after {sets}" if sets else ""), text, called, states)
        return "differ"
    return "same"


def main():
    sides = [Side("sqlearn", SQ), Side("mariadb", MD)]
    ran, counts = 0, {"same": 0, "differ": 0, "refused": 0}
    try:
        for s in sides:
            s.connect()
        for case in range(N):
            counts[check(case, sides)] += 1
            ran += 1
    except pymysql.err.MySQLError as e:
        print(f"STOPPED at case {ran}: {e}")
    print(f"{counts['refused']} procedures refused by MariaDB (generator faults)")
    print(f"{ran} cases, {counts['differ']} differences")


main()
