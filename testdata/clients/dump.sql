-- A schema and data for the mariadb-dump round trip (TestDumpAndRestore):
-- a statement of each kind a dump writes back, with the column types,
-- defaults, keys and constraints that round trips break first.
CREATE DATABASE shop;
USE shop;
CREATE TABLE c (
  id INT UNSIGNED NOT NULL AUTO_INCREMENT COMMENT 'customer id',
  name VARCHAR(20) NOT NULL DEFAULT 'x',
  email VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci,
  tier ENUM('free','pro') NOT NULL DEFAULT 'free',
  flags SET('a','b''q','c') DEFAULT 'a,c',
  born DATE, seen DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3), t TIME,
  score FLOAT, ratio DOUBLE, big BIGINT UNSIGNED, tiny TINYINT, yr YEAR,
  note TEXT, bits BIT(8), code VARCHAR(8) COLLATE utf8mb4_0900_bin,
  name_len INT GENERATED ALWAYS AS (CHAR_LENGTH(name)) STORED,
  PRIMARY KEY (id),
  UNIQUE KEY by_email (email),
  KEY by_name (name) COMMENT 'lookups by name',
  CONSTRAINT score_ok CHECK (score >= 0)
) COMMENT='customers';
CREATE TABLE o (id BIGINT PRIMARY KEY, c INT UNSIGNED, amt DECIMAL(8,2), doc JSON, b BLOB,
  CONSTRAINT o_c FOREIGN KEY (c) REFERENCES c (id) ON DELETE CASCADE);
INSERT INTO c (name, email, tier, flags, born, seen, t, score, ratio, big, tiny, yr, note, bits, code) VALUES
 ('a', 'A@x.org', 'pro', 'a,b''q', '2020-01-02', '2021-02-03 04:05:06.789', '-12:30:00', 1.5, 0.1, 18446744073709551615, -128, 2024, 'it''s "quoted"\\ back', b'101', 'Ab'),
 ('b', NULL, 'free', '', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'ab');
INSERT INTO o VALUES (1, 1, 9.5, '{"k": [1,2]}', 0x00ff10), (2, 2, NULL, NULL, NULL);
CREATE VIEW v AS SELECT name, tier FROM c WHERE tier = 'pro';
CREATE TRIGGER o_amt BEFORE INSERT ON o FOR EACH ROW SET NEW.amt = COALESCE(NEW.amt, 0);
CREATE PROCEDURE add_order(IN oid BIGINT, IN cid INT) INSERT INTO o (id, c) VALUES (oid, cid);
CREATE FUNCTION tier_rank(t VARCHAR(8)) RETURNS INT DETERMINISTIC RETURN CASE t WHEN 'pro' THEN 2 WHEN 'free' THEN 1 ELSE 0 END;
