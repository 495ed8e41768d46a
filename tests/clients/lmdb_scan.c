// SPDX-License-Identifier: GPL-2.0
/*
 * lmdb_scan: a cursor scan of an LMDB database (an mmap B-tree), the
 * real-client test of forward and reverse streams.  Every read goes
 * through LMDB's own read-only mapping of data.mdb; this file only drives
 * the public API (mdb_cursor_get with MDB_FIRST/MDB_NEXT or
 * MDB_LAST/MDB_PREV).
 *
 *   lmdb_scan fill DIR MIB      DIR/data.mdb with about MIB MiB of records:
 *                               8-byte big-endian keys in order, VALUE_SIZE
 *                               byte values (no overflow pages), appended
 *   lmdb_scan scan DIR forward|reverse
 *                               one read transaction, every record visited
 *                               in key order or backwards; every value
 *                               byte summed
 *   lmdb_scan get DIR PERMILLE normal|nordahead
 *                               one read transaction, mdb_get of PERMILLE
 *                               per 1000 of the records, pseudo-random
 *                               keys (a fixed sequence), every value byte
 *                               summed; nordahead opens the environment
 *                               with MDB_NORDAHEAD (LMDB's
 *                               madvise(MADV_RANDOM) of its map)
 *
 * Prints "key: value" lines: records, value_bytes, checksum.
 */
#include <inttypes.h>
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VALUE_SIZE 1000

static int fail(const char *what, int rc)
{
	fprintf(stderr, "lmdb_scan: %s: %s\n", what, mdb_strerror(rc));
	return 1;
}

/* A read transaction on the unnamed database of @env */
static int begin_read(MDB_env *env, MDB_txn **txn, MDB_dbi *dbi)
{
	int rc = mdb_txn_begin(env, NULL, MDB_RDONLY, txn);

	if (rc)
		return fail("mdb_txn_begin", rc);
	rc = mdb_dbi_open(*txn, NULL, 0, dbi);
	if (rc)
		return fail("mdb_dbi_open", rc);
	return 0;
}

static int open_env(MDB_env **env, const char *dir, size_t mapsize,
		    unsigned int flags)
{
	int rc = mdb_env_create(env);

	if (rc)
		return fail("mdb_env_create", rc);
	if (mapsize) {
		rc = mdb_env_set_mapsize(*env, mapsize);
		if (rc)
			return fail("mdb_env_set_mapsize", rc);
	}
	rc = mdb_env_open(*env, dir, flags, 0644);
	if (rc) {
		fprintf(stderr, "lmdb_scan: mdb_env_open %s: %s\n", dir,
			mdb_strerror(rc));
		return 1;
	}
	return 0;
}

/* A record's value: a deterministic, incompressible-looking pattern. */
static void fill_value(unsigned char *v, uint64_t key)
{
	uint64_t x = key * 0x9e3779b97f4a7c15ull + 1;
	size_t i;

	for (i = 0; i < VALUE_SIZE; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v[i] = (unsigned char)x;
	}
}

static void be64(unsigned char *b, uint64_t k)
{
	int i;

	for (i = 7; i >= 0; i--) {
		b[i] = (unsigned char)k;
		k >>= 8;
	}
}

static int put_all(MDB_env *env, uint64_t n)
{
	unsigned char kb[8], vb[VALUE_SIZE];
	MDB_val key = { sizeof(kb), kb }, val = { sizeof(vb), vb };
	MDB_txn *txn;
	MDB_dbi dbi;
	uint64_t k;
	int rc;

	rc = mdb_txn_begin(env, NULL, 0, &txn);
	if (rc)
		return fail("mdb_txn_begin", rc);
	rc = mdb_dbi_open(txn, NULL, 0, &dbi);
	if (rc)
		return fail("mdb_dbi_open", rc);
	for (k = 0; k < n; k++) {
		be64(kb, k);
		fill_value(vb, k);
		rc = mdb_put(txn, dbi, &key, &val, MDB_APPEND);
		if (rc)
			return fail("mdb_put", rc);
	}
	rc = mdb_txn_commit(txn);
	return rc ? fail("mdb_txn_commit", rc) : 0;
}

static int fill(const char *dir, const char *mib)
{
	char *end;
	unsigned long m = strtoul(mib, &end, 10);
	MDB_env *env;
	uint64_t n;
	int rc;

	if (*end || !m || m > 65536) {
		fprintf(stderr, "lmdb_scan: bad size %s (MiB, 1..65536)\n", mib);
		return 2;
	}
	/* about four records per 4 KiB leaf page */
	n = (uint64_t)m * 1024;
	if (open_env(&env, dir, (size_t)m * 3 / 2 * 1024 * 1024 + (64u << 20),
		     MDB_NOSYNC))
		return 1;
	rc = put_all(env, n);
	if (!rc)
		rc = mdb_env_sync(env, 1) ? fail("mdb_env_sync", 1) : 0;
	mdb_env_close(env);
	if (!rc)
		printf("records: %" PRIu64 "\n", n);
	return rc;
}

static uint64_t sum_value(const MDB_val *v)
{
	const unsigned char *p = v->mv_data;
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < v->mv_size; i++)
		s += p[i];
	return s;
}

static int scan(const char *dir, const char *how)
{
	MDB_cursor_op first, next;
	uint64_t records = 0, bytes = 0, sum = 0;
	MDB_val key, val;
	MDB_cursor *cur;
	MDB_env *env;
	MDB_txn *txn;
	MDB_dbi dbi;
	int rc;

	if (!strcmp(how, "forward")) {
		first = MDB_FIRST;
		next = MDB_NEXT;
	} else if (!strcmp(how, "reverse")) {
		first = MDB_LAST;
		next = MDB_PREV;
	} else {
		fprintf(stderr, "lmdb_scan: scan direction is forward or reverse, not %s\n", how);
		return 2;
	}
	if (open_env(&env, dir, 0, MDB_RDONLY))
		return 1;
	rc = begin_read(env, &txn, &dbi);
	if (rc)
		return rc;
	rc = mdb_cursor_open(txn, dbi, &cur);
	if (rc)
		return fail("mdb_cursor_open", rc);
	for (rc = mdb_cursor_get(cur, &key, &val, first); !rc;
	     rc = mdb_cursor_get(cur, &key, &val, next)) {
		records++;
		bytes += val.mv_size;
		sum += sum_value(&val);
	}
	if (rc != MDB_NOTFOUND)
		return fail("mdb_cursor_get", rc);
	mdb_cursor_close(cur);
	mdb_txn_abort(txn);
	mdb_env_close(env);
	printf("records: %" PRIu64 "\nvalue_bytes: %" PRIu64 "\nchecksum: %" PRIu64 "\n",
	       records, bytes, sum);
	return 0;
}

/* xorshift64: the same keys on every run */
static uint64_t next_key(uint64_t *x, uint64_t n)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x % n;
}

static int get_random(const char *dir, const char *permille, const char *how)
{
	uint64_t records = 0, bytes = 0, sum = 0, n, want, i, x = 1;
	unsigned int flags = MDB_RDONLY;
	unsigned char kb[8];
	MDB_val key = { sizeof(kb), kb }, val;
	unsigned long pm = strtoul(permille, NULL, 10);
	MDB_stat st;
	MDB_env *env;
	MDB_txn *txn;
	MDB_dbi dbi;
	int rc;

	if (!strcmp(how, "nordahead")) {
		flags |= MDB_NORDAHEAD;
	} else if (strcmp(how, "normal")) {
		fprintf(stderr, "lmdb_scan: get is normal or nordahead, not %s\n", how);
		return 2;
	}
	if (!pm || pm > 1000) {
		fprintf(stderr, "lmdb_scan: bad permille %s (1..1000)\n", permille);
		return 2;
	}
	if (open_env(&env, dir, 0, flags))
		return 1;
	rc = begin_read(env, &txn, &dbi);
	if (rc)
		return rc;
	rc = mdb_stat(txn, dbi, &st);
	if (rc)
		return fail("mdb_stat", rc);
	n = st.ms_entries;
	want = n * pm / 1000;
	for (i = 0; i < want; i++) {
		be64(kb, next_key(&x, n));
		rc = mdb_get(txn, dbi, &key, &val);
		if (rc)
			return fail("mdb_get", rc);
		records++;
		bytes += val.mv_size;
		sum += sum_value(&val);
	}
	mdb_txn_abort(txn);
	mdb_env_close(env);
	printf("records: %" PRIu64 "\nvalue_bytes: %" PRIu64 "\nchecksum: %" PRIu64 "\n",
	       records, bytes, sum);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "fill"))
		return fill(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "scan"))
		return scan(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[1], "get"))
		return get_random(argv[2], argv[3], argv[4]);
	fprintf(stderr, "usage: lmdb_scan fill DIR MIB | lmdb_scan scan DIR forward|reverse | lmdb_scan get DIR PERMILLE normal|nordahead\n");
	return 2;
}
