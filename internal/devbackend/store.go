package devbackend

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver: no C toolchain needed
)

// dbFormat is the database's PRAGMA user_version: the layout described in
// docs/web.md. A database of a later format is refused rather than
// misread.
const dbFormat = 1

// store is the development database: one table per contract model, each
// row a JSON object with its insertion sequence.
type store struct {
	db *sql.DB
}

// openStore opens (creating it if missing) the SQLite database at path and
// checks that it is one this backend can use.
func openStore(path string) (*store, error) {
	// A file: URI keeps any character of the path literal; the parameters
	// after ? are the driver's. WAL lets readers run beside the writer;
	// immediate transactions take the write lock at BEGIN, so two writers
	// queue on the busy timeout instead of failing on a lock upgrade.
	dsn := (&url.URL{Scheme: "file", OmitHost: true, Path: filepath.ToSlash(path)}).String() +
		"?_busy_timeout=10000&_journal_mode=WAL&_synchronous=NORMAL&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	s := &store{db: db}
	if err := s.init(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

func (s *store) init() error {
	var version int
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	if version > dbFormat {
		return fmt.Errorf("it has format %d, and this axiom reads format %d; use a newer axiom or move the file away", version, dbFormat)
	}
	_, err := s.db.Exec(`CREATE TABLE IF NOT EXISTS axiom_ids (tbl TEXT PRIMARY KEY, last INTEGER NOT NULL)`)
	if err == nil && version < dbFormat {
		_, err = s.db.Exec(fmt.Sprintf("PRAGMA user_version = %d", dbFormat))
	}
	return err
}

func (s *store) close() error { return s.db.Close() }

// tableName is the table of a contract's model: "<contract-id>/<Model>",
// which no other pair gives since neither part can hold a slash.
func tableName(c *contract, m *model) string { return c.id + "/" + m.name }

// quote makes an SQL identifier of any table name.
func quote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// ensure creates the tables of a contract's models that do not exist yet.
func (s *store) ensure(c *contract) error {
	for _, m := range c.models {
		q := `CREATE TABLE IF NOT EXISTS ` + quote(tableName(c, m)) +
			` (seq INTEGER PRIMARY KEY AUTOINCREMENT, data TEXT NOT NULL)`
		if _, err := s.db.Exec(q); err != nil {
			return err
		}
	}
	return nil
}

// row is a stored row read under the current model.
type row struct {
	seq int64
	rec *record
}

// queryer is what reading rows needs: the database or a transaction.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// rows reads every row of a model's table in insertion order. A stored
// value that no longer fits the model (the contract changed) reads as
// its field's zero value.
func rows(ctx context.Context, q queryer, table string, m *model) ([]row, error) {
	rs, err := q.QueryContext(ctx, `SELECT seq, data FROM `+quote(table)+` ORDER BY seq`)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	t := &typ{kind: kModel, model: m}
	var out []row
	for rs.Next() {
		var seq int64
		var data string
		if err := rs.Scan(&seq, &data); err != nil {
			return nil, err
		}
		v, err := readStored([]byte(data))
		if err != nil {
			v = nil // an unreadable row reads as zero values
		}
		c, _ := conform(v, t, "row", false)
		rec, _ := c.(*record)
		if rec == nil {
			rec = zero(t, nil).(*record)
		}
		out = append(out, row{seq: seq, rec: rec})
	}
	return out, rs.Err()
}

// write runs fn in an immediate transaction and commits when it succeeds.
func (s *store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	return tx.Commit()
}

// nextID returns the next generated id number of a table: one more than
// both the last one generated and the largest numeric id already stored,
// so a generated id never repeats one given by a caller. It records it.
func nextID(ctx context.Context, tx *sql.Tx, table string, existing []row) (int64, error) {
	var last int64
	err := tx.QueryRowContext(ctx, `SELECT last FROM axiom_ids WHERE tbl = ?`, table).Scan(&last)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	for _, r := range existing {
		if n, ok := numericID(r.rec); ok && n > last {
			last = n
		}
	}
	if last == math.MaxInt64 {
		return 0, fmt.Errorf("table %s has used every id up to %d", table, last)
	}
	last++
	_, err = tx.ExecContext(ctx, `INSERT INTO axiom_ids (tbl, last) VALUES (?, ?) ON CONFLICT (tbl) DO UPDATE SET last = excluded.last`, table, last)
	return last, err
}

func insertRow(ctx context.Context, tx *sql.Tx, table string, rec *record) (int64, error) {
	data, err := marshal(rec)
	if err != nil {
		return 0, err
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO `+quote(table)+` (data) VALUES (?)`, string(data))
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

func updateRow(ctx context.Context, tx *sql.Tx, table string, seq int64, rec *record) error {
	data, err := marshal(rec)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE `+quote(table)+` SET data = ? WHERE seq = ?`, string(data), seq)
	return err
}

func deleteRow(ctx context.Context, tx *sql.Tx, table string, seq int64) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM `+quote(table)+` WHERE seq = ?`, seq)
	return err
}
