// Package sqlearn is the root of a MySQL-compatible server that trains and
// serves machine-learning models with SQL. The server lives in cmd/sqlearn;
// ARCHITECTURE.md describes the packages and how data flows between them.
package sqlearn
