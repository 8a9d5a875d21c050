"""A session as data engineers run one from Python: pandas writes a frame
to a table and reads it back through SQLAlchemy (MySQL dialect over
pymysql), SQLAlchemy creates a schema with keys and indexes, reflects it
back, and an ORM model with a relationship adds, queries, updates and
deletes rows in transactions. Prints 'ok' on success."""
import datetime
import decimal
import sys

import pandas as pd
import sqlalchemy as sa
from sqlalchemy import orm

host, port = sys.argv[1], int(sys.argv[2])
engine = sa.create_engine(f"mysql+pymysql://root@{host}:{port}/")
with engine.begin() as conn:
    conn.execute(sa.text("CREATE DATABASE pd"))
engine = sa.create_engine(f"mysql+pymysql://root@{host}:{port}/pd")

# pandas: to_sql creates the table from the frame's types and inserts the
# rows, read_sql reads them back.
n = 1000
frame = pd.DataFrame({
    "id": range(n),
    "x": [i / 7 for i in range(n)],
    "label": [f"row {i}" if i % 10 else None for i in range(n)],
    "at": [datetime.datetime(2024, 1, 1) + datetime.timedelta(minutes=i) for i in range(n)],
    "flag": [i % 3 == 0 for i in range(n)],
})
frame.loc[5, "x"] = float("nan")
frame.to_sql("frame", engine, index=False, chunksize=256)
frame.to_sql("frame_multi", engine, index=False, chunksize=256, method="multi")
for table in ("frame", "frame_multi"):
    back = pd.read_sql(f"SELECT * FROM {table} ORDER BY id", engine)
    assert list(back.columns) == list(frame.columns), back.columns
    assert back["id"].tolist() == frame["id"].tolist(), table
    assert back["x"].isna().tolist() == frame["x"].isna().tolist(), table
    assert (back["x"].fillna(0) - frame["x"].fillna(0)).abs().max() < 1e-12, table
    assert back["label"].tolist() == frame["label"].tolist(), table
    assert (pd.to_datetime(back["at"]) == frame["at"]).all(), table
    assert back["flag"].astype(bool).tolist() == frame["flag"].tolist(), table
frame.iloc[:10].to_sql("frame", engine, index=False, if_exists="replace")
assert pd.read_sql("SELECT COUNT(*) AS n FROM frame", engine)["n"][0] == 10
grouped = pd.read_sql(sa.text("SELECT flag, COUNT(*) AS n, AVG(x) AS mean FROM frame_multi WHERE id < :top GROUP BY flag ORDER BY flag"),
                      engine, params={"top": 100})
assert grouped["n"].tolist() == [66, 34], grouped

# SQLAlchemy Core: a schema with a foreign key, an index, defaults and a
# unique constraint, created and reflected back.
meta = sa.MetaData()
customers = sa.Table(
    "customers", meta,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(64), nullable=False, index=True),
    sa.Column("email", sa.String(128), unique=True),
    sa.Column("joined", sa.Date, server_default=sa.text("'2020-01-01'")),
)
orders = sa.Table(
    "orders", meta,
    sa.Column("id", sa.BigInteger, primary_key=True),
    sa.Column("customer_id", sa.Integer, sa.ForeignKey("customers.id", ondelete="CASCADE"), nullable=False),
    sa.Column("amount", sa.Numeric(10, 2)),
    sa.Column("note", sa.Text),
)
meta.create_all(engine)
insp = sa.inspect(engine)
assert set(insp.get_table_names()) >= {"customers", "orders", "frame", "frame_multi"}, insp.get_table_names()
assert [c["name"] for c in insp.get_columns("orders")] == ["id", "customer_id", "amount", "note"]
assert insp.get_pk_constraint("orders")["constrained_columns"] == ["id"]
fks = insp.get_foreign_keys("orders")
assert len(fks) == 1 and fks[0]["referred_table"] == "customers" and fks[0]["constrained_columns"] == ["customer_id"], fks
assert any(ix["column_names"] == ["name"] for ix in insp.get_indexes("customers")), insp.get_indexes("customers")
assert any(uc["column_names"] == ["email"] for uc in insp.get_unique_constraints("customers")) or \
    any(ix["column_names"] == ["email"] and ix["unique"] for ix in insp.get_indexes("customers"))

with engine.begin() as conn:
    conn.execute(customers.insert(), [{"name": "ada", "email": "ada@x.org"}, {"name": "bob", "email": "bob@x.org"}])
    ids = dict(conn.execute(sa.select(customers.c.name, customers.c.id)).all())
    conn.execute(orders.insert(), [
        {"id": 1, "customer_id": ids["ada"], "amount": decimal.Decimal("9.99"), "note": "first"},
        {"id": 2, "customer_id": ids["ada"], "amount": decimal.Decimal("20.01"), "note": None},
        {"id": 3, "customer_id": ids["bob"], "amount": None, "note": None},
    ])
with engine.connect() as conn:
    totals = conn.execute(
        sa.select(customers.c.name, sa.func.count(orders.c.id), sa.func.sum(orders.c.amount))
        .join(orders).group_by(customers.c.name).order_by(customers.c.name)).all()
    assert totals == [("ada", 2, decimal.Decimal("30.00")), ("bob", 1, None)], totals
    assert conn.execute(sa.select(customers.c.joined).where(customers.c.name == "ada")).scalar() == datetime.date(2020, 1, 1)
    try:
        with conn.begin():
            conn.execute(orders.insert(), {"id": 4, "customer_id": 999})
        raise AssertionError("an order for a missing customer was accepted")
    except sa.exc.IntegrityError as e:
        assert e.orig.args[0] == 1452, e.orig.args

# The ORM: mapped classes with a relationship, in a session.
Base = orm.declarative_base()


class Author(Base):
    __tablename__ = "authors"
    id = sa.Column(sa.Integer, primary_key=True)
    name = sa.Column(sa.String(50), nullable=False)
    books = orm.relationship("Book", back_populates="author", cascade="all, delete-orphan")


class Book(Base):
    __tablename__ = "books"
    id = sa.Column(sa.Integer, primary_key=True)
    title = sa.Column(sa.String(100), nullable=False)
    author_id = sa.Column(sa.Integer, sa.ForeignKey("authors.id"), nullable=False)
    author = orm.relationship("Author", back_populates="books")


Base.metadata.create_all(engine)
with orm.Session(engine) as session:
    session.add_all([Author(name="le guin", books=[Book(title="the dispossessed"), Book(title="the lathe of heaven")]),
                     Author(name="lem", books=[Book(title="solaris")])])
    session.commit()
with orm.Session(engine) as session:
    lem = session.execute(sa.select(Author).where(Author.name == "lem")).scalar_one()
    assert [b.title for b in lem.books] == ["solaris"]
    counts = session.execute(sa.select(Author.name, sa.func.count(Book.id)).join(Book).group_by(Author.name).order_by(Author.name)).all()
    assert counts == [("le guin", 2), ("lem", 1)], counts
    lem.books.append(Book(title="his master's voice"))
    session.delete(session.execute(sa.select(Author).where(Author.name == "le guin")).scalar_one())
    session.commit()
with orm.Session(engine) as session:
    titles = sorted(session.execute(sa.select(Book.title)).scalars())
    assert titles == ["his master's voice", "solaris"], titles
    session.add(Book(title="orphan", author_id=12345))
    try:
        session.commit()
        raise AssertionError("a book of a missing author was accepted")
    except sa.exc.IntegrityError:
        session.rollback()
    assert session.execute(sa.select(sa.func.count(Book.id))).scalar() == 2
print("ok")
