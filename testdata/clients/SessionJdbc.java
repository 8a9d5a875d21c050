// A session through JDBC (MariaDB Connector/J), the way Java programs and
// BI tools use a MySQL server: catalog metadata, server-side and client-side
// prepared statements of every common type, batches, transactions, error
// codes and SQLSTATEs, a procedure call with an OUT variable and streaming a
// large result. Run as `java -cp mariadb-java-client.jar SessionJdbc.java
// HOST PORT`; prints "ok" on success and fails with the first mismatch.

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public class SessionJdbc {
    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    static void checkEq(Object got, Object want, String what) {
        if (got == null ? want != null : !got.equals(want)) {
            throw new AssertionError(what + ": got " + got + ", want " + want);
        }
    }

    static void expectError(Statement st, String sql, int code, String state) {
        try {
            st.execute(sql);
        } catch (SQLException e) {
            checkEq(e.getErrorCode(), code, "error code of " + sql + " (" + e.getMessage() + ")");
            checkEq(e.getSQLState(), state, "SQLSTATE of " + sql);
            return;
        }
        throw new AssertionError("accepted: " + sql);
    }

    static List<String> column(ResultSet rs, String name) throws SQLException {
        List<String> out = new ArrayList<>();
        while (rs.next()) {
            out.add(rs.getString(name));
        }
        rs.close();
        return out;
    }

    public static void main(String[] args) throws Exception {
        String base = "jdbc:mariadb://" + args[0] + ":" + args[1] + "/";
        try (Connection c = DriverManager.getConnection(base + "?user=root&password=")) {
            setUp(c);
            metadata(c);
            errors(c);
            transactions(c);
            procedures(c);
        }
        for (String mode : new String[] {"useServerPrepStmts=true", "useServerPrepStmts=false"}) {
            try (Connection c = DriverManager.getConnection(base + "jd?user=root&password=&" + mode)) {
                types(c, mode);
                batches(c, mode);
            }
        }
        try (Connection c = DriverManager.getConnection(base + "jd?user=root&password=")) {
            streaming(c);
        }
        System.out.println("ok");
    }

    static void setUp(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE jd");
            st.execute("USE jd");
            st.execute("CREATE TABLE customers (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(64) NOT NULL, "
                + "email VARCHAR(128), created DATE, INDEX by_name (name))");
            st.execute("CREATE TABLE orders (id BIGINT PRIMARY KEY, customer INT NOT NULL, amount DECIMAL(10,2), "
                + "FOREIGN KEY (customer) REFERENCES customers (id))");
            st.execute("CREATE VIEW big_orders AS SELECT id, amount FROM orders WHERE amount > 100");
            String ver = c.getMetaData().getDatabaseProductVersion();
            try (ResultSet rs = st.executeQuery("SELECT @@version")) {
                rs.next();
                checkEq(ver, rs.getString(1), "product version against @@version");
            }
        }
    }

    // metadata calls what a BI tool's schema browser calls.
    static void metadata(Connection c) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        check(column(md.getCatalogs(), "TABLE_CAT").contains("jd"), "getCatalogs lists jd");
        checkEq(column(md.getTables("jd", null, "%", new String[] {"TABLE"}), "TABLE_NAME"),
            Arrays.asList("customers", "orders"), "getTables(TABLE)");
        checkEq(column(md.getTables("jd", null, "%", new String[] {"VIEW"}), "TABLE_NAME"),
            Arrays.asList("big_orders"), "getTables(VIEW)");

        try (ResultSet rs = md.getColumns("jd", null, "customers", "%")) {
            List<String> got = new ArrayList<>();
            while (rs.next()) {
                got.add(rs.getString("COLUMN_NAME") + " " + rs.getInt("DATA_TYPE") + " "
                    + rs.getString("IS_NULLABLE") + " " + rs.getString("IS_AUTOINCREMENT"));
            }
            checkEq(got, Arrays.asList("id " + Types.INTEGER + " NO YES", "name " + Types.VARCHAR + " NO NO",
                "email " + Types.VARCHAR + " YES NO", "created " + Types.DATE + " YES NO"), "getColumns");
        }
        try (ResultSet rs = md.getColumns("jd", null, "orders", "amount")) {
            check(rs.next(), "getColumns(orders.amount)");
            checkEq(rs.getInt("DATA_TYPE"), Types.DECIMAL, "DECIMAL's type");
            checkEq(rs.getInt("COLUMN_SIZE"), 10, "DECIMAL's precision");
            checkEq(rs.getInt("DECIMAL_DIGITS"), 2, "DECIMAL's scale");
        }
        checkEq(column(md.getPrimaryKeys("jd", null, "orders"), "COLUMN_NAME"), Arrays.asList("id"), "getPrimaryKeys");
        List<String> idx = column(md.getIndexInfo("jd", null, "customers", false, false), "INDEX_NAME");
        check(idx.contains("PRIMARY") && idx.contains("by_name"), "getIndexInfo: " + idx);
        try (ResultSet rs = md.getImportedKeys("jd", null, "orders")) {
            check(rs.next(), "getImportedKeys finds the foreign key");
            checkEq(rs.getString("PKTABLE_NAME"), "customers", "referenced table");
            checkEq(rs.getString("PKCOLUMN_NAME"), "id", "referenced column");
            checkEq(rs.getString("FKCOLUMN_NAME"), "customer", "referencing column");
        }
        check(column(md.getTypeInfo(), "TYPE_NAME").contains("VARCHAR"), "getTypeInfo lists VARCHAR");
    }

    static void errors(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("INSERT INTO customers (id, name) VALUES (1, 'Ada')");
            expectError(st, "INSERT INTO customers (id, name) VALUES (1, 'Bob')", 1062, "23000");
            expectError(st, "SELECT * FROM nowhere", 1146, "42S02");
            expectError(st, "SELEC 1", 1064, "42000");
            expectError(st, "SELECT nope FROM customers", 1054, "42S22");
            expectError(st, "INSERT INTO customers (id) VALUES (2)", 1364, "HY000");
            expectError(st, "INSERT INTO orders VALUES (1, 99, 5)", 1452, "23000");
        }
    }

    static void transactions(Connection c) throws SQLException {
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            st.execute("INSERT INTO customers (name) VALUES ('rolled back')");
            c.rollback();
            st.execute("INSERT INTO customers (name) VALUES ('Grace')");
            c.commit();
        }
        c.setAutoCommit(true);
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT name FROM customers ORDER BY id")) {
            checkEq(column(rs, "name"), Arrays.asList("Ada", "Grace"), "after rollback and commit");
        }
    }

    // procedures trains a model through CALL with a session variable for
    // its handle, as HeatWave's documentation shows, and scores a row.
    static void procedures(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE pts (x DOUBLE, y DOUBLE)");
            StringBuilder ins = new StringBuilder("INSERT INTO pts VALUES ");
            for (int i = 0; i < 20; i++) {
                ins.append(i == 0 ? "" : ",").append("(").append(i).append(",").append(3 * i + 1).append(")");
            }
            st.execute(ins.toString());
            st.execute("CALL sys.ML_TRAIN('jd.pts', 'y', JSON_OBJECT('task', 'regression', 'algorithm', 'linear_regression'), @m)");
            try (ResultSet rs = st.executeQuery("SELECT @m IS NOT NULL, JSON_EXTRACT(sys.ML_PREDICT_ROW(JSON_OBJECT('x', 10), @m, NULL), '$.Prediction')")) {
                check(rs.next(), "a prediction row");
                check(rs.getBoolean(1), "ML_TRAIN set @m");
                // A JSON value: Connector/J reads it as text only, as from MySQL.
                double got = Double.parseDouble(rs.getString(2));
                check(Math.abs(got - 31) < 1e-6, "prediction of y = 3x + 1 at 10: " + got);
            }
        }
        // A procedure's every SELECT is a result set of the CALL's answer.
        try (Statement st = c.createStatement()) {
            st.execute("CREATE PROCEDURE pts_report(IN lim DOUBLE) BEGIN "
                + "SELECT COUNT(*) AS n FROM pts; SELECT x FROM pts WHERE x < lim ORDER BY x; END");
            check(st.execute("CALL pts_report(2)"), "CALL pts_report answers with rows");
            checkEq(column(st.getResultSet(), "n"), Arrays.asList("20"), "the CALL's first result set");
            check(st.getMoreResults(), "a second result set");
            checkEq(column(st.getResultSet(), "x"), Arrays.asList("0", "1"), "the CALL's second result set");
            check(!st.getMoreResults() && st.getUpdateCount() == 0, "the CALL's OK after its result sets");
        }
        try (PreparedStatement ps = c.prepareStatement("CALL sys.ML_SCORE('jd.pts', 'y', @m, 'r2', @s, NULL)")) {
            ps.execute();
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT @s")) {
            check(rs.next() && Math.abs(rs.getDouble(1) - 1) < 1e-9, "r2 of an exact fit");
        }
    }

    // types round-trips every common type through parameters and reads it
    // back through the typed getters and the result's metadata.
    static void types(Connection c, String mode) throws SQLException {
        String t = "ty_" + (mode.endsWith("true") ? "server" : "client");
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE " + t + " (id INT PRIMARY KEY, ti TINYINT, bi BIGINT, ub BIGINT UNSIGNED, "
                + "f FLOAT, d DOUBLE, dec_ DECIMAL(20,6), s VARCHAR(100), txt MEDIUMTEXT, b VARBINARY(16), bl LONGBLOB, "
                + "dt DATE, ts DATETIME(3), j JSON, bo BOOLEAN)");
        }
        byte[] blob = new byte[1 << 20];
        for (int i = 0; i < blob.length; i++) {
            blob[i] = (byte) (i * 31);
        }
        Timestamp ts = Timestamp.valueOf("2024-02-29 13:14:15.678");
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
            ps.setInt(1, 1);
            ps.setByte(2, (byte) -128);
            ps.setLong(3, Long.MIN_VALUE);
            ps.setBigDecimal(4, new BigDecimal("18446744073709551615"));
            ps.setFloat(5, 1.5f);
            ps.setDouble(6, Math.PI);
            ps.setBigDecimal(7, new BigDecimal("-12345678901234.123456"));
            ps.setString(8, "héllo, 世界 'quoted' \\ back");
            ps.setString(9, "x".repeat(70000));
            ps.setBytes(10, new byte[] {0, 1, 2, (byte) 255});
            ps.setBytes(11, blob);
            ps.setDate(12, Date.valueOf("1999-12-31"));
            ps.setTimestamp(13, ts);
            ps.setString(14, "{\"a\": [1, 2, {\"b\": null}]}");
            ps.setBoolean(15, true);
            checkEq(ps.executeUpdate(), 1, "rows inserted");
            ps.setInt(1, 2);
            for (int i = 2; i <= 15; i++) {
                ps.setNull(i, Types.NULL);
            }
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM " + t + " WHERE id = ?")) {
            ps.setInt(1, 1);
            try (ResultSet rs = ps.executeQuery()) {
                check(rs.next(), "row 1 (" + mode + ")");
                checkEq(rs.getByte("ti"), (byte) -128, "TINYINT");
                checkEq(rs.getLong("bi"), Long.MIN_VALUE, "BIGINT");
                checkEq(rs.getBigDecimal("ub"), new BigDecimal("18446744073709551615"), "BIGINT UNSIGNED");
                checkEq(rs.getFloat("f"), 1.5f, "FLOAT");
                checkEq(rs.getDouble("d"), Math.PI, "DOUBLE");
                checkEq(rs.getBigDecimal("dec_"), new BigDecimal("-12345678901234.123456"), "DECIMAL");
                checkEq(rs.getString("s"), "héllo, 世界 'quoted' \\ back", "VARCHAR");
                checkEq(rs.getString("txt").length(), 70000, "TEXT length");
                check(Arrays.equals(rs.getBytes("b"), new byte[] {0, 1, 2, (byte) 255}), "VARBINARY");
                check(Arrays.equals(rs.getBytes("bl"), blob), "LONGBLOB");
                checkEq(rs.getDate("dt"), Date.valueOf("1999-12-31"), "DATE");
                checkEq(rs.getTimestamp("ts"), ts, "DATETIME(3)");
                checkEq(rs.getString("j").replace(" ", ""), "{\"a\":[1,2,{\"b\":null}]}", "JSON");
                checkEq(rs.getBoolean("bo"), true, "BOOLEAN");
                ResultSetMetaData md = rs.getMetaData();
                checkEq(md.getColumnCount(), 15, "column count");
                checkEq(md.getColumnType(3), Types.BIGINT, "BIGINT's JDBC type");
                checkEq(md.getColumnType(7), Types.DECIMAL, "DECIMAL's JDBC type");
                checkEq(md.getScale(7), 6, "DECIMAL's scale in the result");
                checkEq(md.getColumnType(12), Types.DATE, "DATE's JDBC type");
                checkEq(md.getColumnType(13), Types.TIMESTAMP, "DATETIME's JDBC type");
                checkEq(md.getTableName(1), t, "table name of a column");
            }
            ps.setInt(1, 2);
            try (ResultSet rs = ps.executeQuery()) {
                check(rs.next(), "row 2 (" + mode + ")");
                for (int i = 2; i <= 15; i++) {
                    check(rs.getObject(i) == null, "NULL in column " + i + " (" + mode + ")");
                }
                rs.getLong("bi");
                check(rs.wasNull(), "wasNull after a NULL BIGINT");
            }
        }
    }

    static void batches(Connection c, String mode) throws SQLException {
        String t = "batch_" + (mode.endsWith("true") ? "server" : "client");
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE " + t + " (id INT PRIMARY KEY, v VARCHAR(20))");
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " VALUES (?, ?)")) {
            for (int i = 0; i < 500; i++) {
                ps.setInt(1, i);
                ps.setString(2, "v" + i);
                ps.addBatch();
            }
            int[] counts = ps.executeBatch();
            checkEq(counts.length, 500, "batch update counts");
            ps.setInt(1, 1000);
            ps.setString(2, "fine");
            ps.addBatch();
            ps.setInt(1, 7);
            ps.setString(2, "duplicate");
            ps.addBatch();
            try {
                ps.executeBatch();
                throw new AssertionError("a batch with a duplicate key succeeded");
            } catch (SQLException e) {
                checkEq(e.getErrorCode(), 1062, "batch error code (" + e.getMessage() + ")");
            }
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(id) FROM " + t + " WHERE id < 500")) {
            rs.next();
            checkEq(rs.getInt(1), 500, "batched rows");
            checkEq(rs.getLong(2), 124750L, "sum of batched ids");
        }
    }

    // streaming reads a large result row by row (fetch size MIN_VALUE asks
    // Connector/J to stream) and then uses the connection again.
    static void streaming(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE seq (n INT PRIMARY KEY)");
            StringBuilder ins = new StringBuilder("INSERT INTO seq VALUES (0)");
            for (int i = 1; i < 20000; i++) {
                ins.append(",(").append(i).append(")");
            }
            st.execute(ins.toString());
        }
        try (Statement st = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            st.setFetchSize(Integer.MIN_VALUE);
            long sum = 0;
            int rows = 0;
            try (ResultSet rs = st.executeQuery("SELECT a.n FROM seq a ORDER BY a.n")) {
                while (rs.next()) {
                    sum += rs.getInt(1);
                    rows++;
                }
            }
            checkEq(rows, 20000, "streamed rows");
            checkEq(sum, 199990000L, "streamed sum");
            try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM seq")) {
                rs.next();
                checkEq(rs.getInt(1), 20000, "count after streaming");
            }
        }
    }
}
