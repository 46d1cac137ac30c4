// SPDX-License-Identifier: GPL-2.0
/*
 * btf_vs_libbpf [--base VMLINUX] FILE: parse raw BTF FILE with libbpf and
 * with c2cscope's own reader (src/types/btf_data.c, dense and sparse index)
 * and compare every type: the same count, and for each id the same record
 * (kind, vlen, flag, size or type, every kind-specific word) and the same
 * name. Prints "N types agree" or the first differences; exit 1 on any.
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "types/btf_data.h"

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static int compare(const struct btf *lb, const struct btf_data *ours, const char *what)
{
	uint32_t n = btf__type_cnt(lb), id, bad = 0;

	if (type_btf_type_cnt(ours) != n) {
		printf("%s: libbpf has %u type ids, we have %u\n", what, n,
		       type_btf_type_cnt(ours));
		return 1;
	}
	for (id = 1; id < n && bad < 10; id++) {
		const struct btf_type *lt = btf__type_by_id(lb, id);
		const struct btf_rec *ot = type_btf_type(ours, id);
		const char *ln, *on;

		if (!lt || !ot) {
			printf("%s: type %u: %s has no record\n", what, id, lt ? "ours" : "libbpf");
			bad++;
			continue;
		}
		if (memcmp(lt, ot, type_btf_rec_size(ot))) {
			printf("%s: type %u: the records differ (kind %u)\n", what, id,
			       btf_rec_kind(ot));
			bad++;
		}
		ln = btf__name_by_offset(lb, lt->name_off);
		on = type_btf_str(ours, ot->name_off);
		if (strcmp(ln ? ln : "", on)) {
			printf("%s: type %u: name '%s' (libbpf) vs '%s' (ours)\n", what, id,
			       ln ? ln : "", on);
			bad++;
		}
	}
	if (!bad)
		printf("%s: %u types agree\n", what, n - 1);
	return bad != 0;
}

int main(int argc, char **argv)
{
	const char *base_path = NULL, *path;
	struct btf *lbase = NULL, *lb;
	struct btf_data *obase = NULL, *dense = NULL, *sparse = NULL;
	struct err_msg err = { 0 };
	int ret = 1;

	if (argc == 4 && !strcmp(argv[1], "--base"))
		base_path = argv[2];
	else if (argc != 2) {
		fprintf(stderr, "usage: btf_vs_libbpf [--base VMLINUX] FILE\n");
		return 2;
	}
	path = argv[argc - 1];
	libbpf_set_print(quiet);
	if (base_path && (!(lbase = btf__parse_raw(base_path)) ||
			  type_btf_open(base_path, NULL, false, &obase, &err))) {
		fprintf(stderr, "%s: cannot read the base BTF: %s\n", base_path,
			err.msg[0] ? err.msg : "libbpf failed");
		return 2;
	}
	lb = lbase ? btf__parse_raw_split(path, lbase) : btf__parse_raw(path);
	if (!lb || type_btf_open(path, obase, false, &dense, &err) ||
	    type_btf_open(path, obase, true, &sparse, &err)) {
		fprintf(stderr, "%s: cannot read: %s\n", path,
			err.msg[0] ? err.msg : "libbpf failed");
		ret = 2;
		goto out;
	}
	ret = compare(lb, dense, "dense index") | compare(lb, sparse, "sparse index");
out:
	type_btf_close(sparse);
	type_btf_close(dense);
	type_btf_close(obase);
	btf__free(lb);
	btf__free(lbase);
	return ret;
}
