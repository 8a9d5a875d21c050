DROP DATABASE IF EXISTS wpd; CREATE DATABASE wpd CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci; USE wpd;
CREATE TABLE wp_posts (
  ID bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  post_author bigint(20) unsigned NOT NULL DEFAULT 0,
  post_date datetime NOT NULL DEFAULT '2000-01-01 00:00:00',
  post_content longtext NOT NULL,
  post_title text NOT NULL,
  post_status varchar(20) NOT NULL DEFAULT 'publish',
  post_name varchar(200) NOT NULL DEFAULT '',
  post_type varchar(20) NOT NULL DEFAULT 'post',
  comment_count bigint(20) NOT NULL DEFAULT 0,
  PRIMARY KEY (ID),
  KEY post_name (post_name(191)),
  KEY type_status_date (post_type,post_status,post_date,ID),
  KEY post_author (post_author),
  FULLTEXT KEY ft_content (post_title, post_content)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
CREATE TABLE wp_postmeta (
  meta_id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  post_id bigint(20) unsigned NOT NULL DEFAULT 0,
  meta_key varchar(255) DEFAULT NULL,
  meta_value longtext DEFAULT NULL,
  PRIMARY KEY (meta_id),
  KEY post_id (post_id),
  KEY meta_key (meta_key(191)),
  CONSTRAINT fk_post FOREIGN KEY (post_id) REFERENCES wp_posts (ID) ON DELETE CASCADE
) ENGINE=InnoDB;
CREATE TABLE stats (d date NOT NULL, hits int NOT NULL, PRIMARY KEY (d)) PARTITION BY RANGE (YEAR(d)) (PARTITION p2023 VALUES LESS THAN (2024), PARTITION p2024 VALUES LESS THAN (2025), PARTITION pmax VALUES LESS THAN MAXVALUE);
INSERT INTO wp_posts (post_author, post_date, post_content, post_title, post_name) VALUES (1, '2024-01-02 03:04:05', 'Hello world body', 'Hello', 'hello'), (2, '2024-02-03 04:05:06', 'Second — ünïcödé', 'Second', 'second');
INSERT INTO wp_postmeta (post_id, meta_key, meta_value) VALUES (1, '_edit_lock', '123:1'), (2, '_thumbnail_id', '5');
INSERT INTO stats VALUES ('2023-05-01', 10), ('2024-06-01', 20);
CREATE VIEW recent AS SELECT ID, post_title FROM wp_posts WHERE post_status = 'publish' ORDER BY post_date DESC;
DELIMITER //
CREATE TRIGGER bump AFTER INSERT ON wp_postmeta FOR EACH ROW BEGIN UPDATE wp_posts SET comment_count = comment_count + 1 WHERE ID = NEW.post_id; END//
CREATE PROCEDURE cnt(OUT n INT) BEGIN SELECT COUNT(*) INTO n FROM wp_posts; END//
DELIMITER ;
