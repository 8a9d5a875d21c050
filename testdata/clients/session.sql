-- A session of DDL, DML, transactions and queries run through the mariadb
-- command-line client; its output must match session.sql.out.
CREATE DATABASE cli;
USE cli;
CREATE TABLE users (
  id INT PRIMARY KEY AUTO_INCREMENT,
  email VARCHAR(64) NOT NULL,
  score DOUBLE DEFAULT 0,
  joined DATE,
  UNIQUE KEY email_u (email)
);
INSERT INTO users (email, score, joined) VALUES
  ('ann@example.org', 3.5, '2024-01-02'),
  ('bob@example.org', 1.25, '2024-02-03'),
  ('cy@example.org', NULL, NULL);
SELECT id, email, score, joined FROM users ORDER BY id;
UPDATE users SET score = score * 2 WHERE score IS NOT NULL;
SELECT email, score FROM users WHERE id = 2;
BEGIN;
DELETE FROM users WHERE email LIKE 'cy%';
INSERT INTO users (email) VALUES ('dee@example.org');
SELECT COUNT(*) AS in_tx FROM users;
ROLLBACK;
SELECT COUNT(*) AS after_rollback FROM users;
START TRANSACTION;
INSERT INTO users (email, score) VALUES ('eve@example.org', 9);
COMMIT;
SELECT email, score FROM users WHERE score > 5 ORDER BY score DESC;
CREATE TABLE orders (id INT PRIMARY KEY, user_id INT, amount DECIMAL(8,2), KEY user_i (user_id));
INSERT INTO orders VALUES (1, 1, 10.50), (2, 1, 4.25), (3, 2, 99.99), (4, 5, 1.00);
SELECT u.email, COUNT(o.id) AS n, SUM(o.amount) AS total
  FROM users u LEFT JOIN orders o ON o.user_id = u.id
  GROUP BY u.email ORDER BY u.email;
ALTER TABLE users ADD COLUMN tier VARCHAR(8) DEFAULT 'basic';
SELECT email, tier FROM users ORDER BY id LIMIT 2;
SHOW TABLES;
DROP TABLE orders;
SHOW TABLES;
PREPARE top FROM 'SELECT email FROM users WHERE score > ? ORDER BY score DESC LIMIT 1';
SET @min = 5;
EXECUTE top USING @min;
DEALLOCATE PREPARE top;
SELECT routine_name FROM information_schema.ROUTINES WHERE routine_schema = 'cli';
CREATE TABLE measures (id INT PRIMARY KEY, d DOUBLE, f FLOAT);
INSERT INTO measures VALUES (1, 1500000, 123456789), (2, 1e-7, 0.1), (3, 1e15, -2.5);
SELECT id, d, f FROM measures ORDER BY id;
SELECT SUM(d) AS s, 1e0 / 3 AS third, 2.5e-10 AS tiny FROM measures;
SELECT d FROM measures WHERE id = 2;
DELIMITER //
CREATE PROCEDURE add_order(IN u INT, IN amt DECIMAL(8,2), OUT total DECIMAL(10,2))
BEGIN
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    GET DIAGNOSTICS CONDITION 1 @err = MESSAGE_TEXT;
    ROLLBACK;
    SET total = NULL;
  END;
  START TRANSACTION;
  INSERT INTO ledger (user_id, amount) VALUES (u, amt);
  SELECT SUM(amount) INTO total FROM ledger WHERE user_id = u;
  COMMIT;
END//
CREATE FUNCTION tier_of(total DECIMAL(10,2)) RETURNS VARCHAR(8) DETERMINISTIC
RETURN CASE WHEN total >= 100 THEN 'gold' WHEN total >= 10 THEN 'silver' ELSE 'basic' END//
DELIMITER ;
CREATE TABLE ledger (id INT AUTO_INCREMENT PRIMARY KEY, user_id INT NOT NULL, amount DECIMAL(8,2) NOT NULL);
CALL add_order(1, 60.00, @t1);
CALL add_order(1, 45.50, @t2);
CALL add_order(NULL, 1.00, @t3);
SELECT @t1, @t2, @t3, @err, tier_of(@t2) AS tier;
SELECT user_id, COUNT(*) AS n FROM ledger GROUP BY user_id;
DELIMITER //
CREATE PROCEDURE ledger_report(IN u INT)
BEGIN
  SELECT COUNT(*) AS orders FROM ledger WHERE user_id = u;
  SELECT id, amount FROM ledger WHERE user_id = u ORDER BY id;
END//
DELIMITER ;
CALL ledger_report(1);
