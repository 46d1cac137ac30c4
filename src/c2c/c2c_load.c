// SPDX-License-Identifier: GPL-2.0
/*
 * The one place that composes "load, attribute": c2c_session_read() (the
 * session, which knows nothing of attribution), then, when asked, the
 * rows' fields named through c2c_attrib. Above both in the module's order:
 * c2c_session.c < c2c_attrib.c < c2c_load.c.
 */
#include "c2c/c2c_attrib.h"
#include "c2c/c2c_session.h"

#include <inttypes.h>
#include <string.h>

/* One warning per problem with the kernel's debug files, when kernel samples were refused. */
static void kernel_warnings(struct c2c_session *s, const uint64_t *counts)
{
	const char *p = c2c_attrib_kernel_problems(s->attrib);
	uint64_t refused = counts[C2C_ATTRIB_KERNEL] + counts[C2C_ATTRIB_KERNEL_NOT_IN_DEBUGINFO] +
			   counts[C2C_ATTRIB_KERNEL_MISMATCH] +
			   counts[C2C_ATTRIB_KERNEL_UNVERIFIED];

	if (counts[C2C_ATTRIB_KERNEL_MISMATCH])
		strbuf_addf(&s->warnings,
			    "field attribution: %" PRIu64
			    " kernel samples refused: the debug file's build-id or function "
			    "size is not the recorded kernel's\n",
			    counts[C2C_ATTRIB_KERNEL_MISMATCH]);
	while (refused && *p) {
		size_t len = strcspn(p, "\n");

		strbuf_addf(&s->warnings, "field attribution: %.*s\n", (int)len, p);
		p += len + (p[len] == '\n');
	}
}

/* Name the rows' fields; one warning for the samples no debug info explains. */
static void attribute(struct c2c_session *s)
{
	uint64_t counts[C2C_ATTRIB_NR_REASONS];
	const char *missing;

	s->attrib = c2c_attrib_session(s);
	s->attrib_free = c2c_attrib_free;
	c2c_attrib_counts(s->attrib, counts);
	missing = c2c_attrib_missing(s->attrib);
	if (counts[C2C_ATTRIB_NO_DEBUGINFO] && *missing)
		strbuf_addf(&s->warnings,
			    "field attribution: %" PRIu64
			    " samples in code without debug info; first: %.*s\n",
			    counts[C2C_ATTRIB_NO_DEBUGINFO], (int)strcspn(missing, "\n"), missing);
	kernel_warnings(s, counts);
}

int c2c_session_load_profile(const char *path, const struct c2c_kernel_files *kernel,
			     struct c2c_session **out, struct err_msg *err)
{
	struct c2c_session_opts so = { .path = path, .attribute = true };

	if (kernel) {
		so.symbols.vmlinux = kernel->vmlinux;
		so.symbols.kallsyms = kernel->kallsyms;
		so.kernel_debug = kernel->debug;
		so.nr_kernel_debug = kernel->nr_debug;
	}

	so.model.keys[0] = C2C_KEY_IADDR;
	so.model.nr_keys = 1;
	return c2c_session_load(&so, out, err);
}

int c2c_session_load(const struct c2c_session_opts *opts, struct c2c_session **out,
		     struct err_msg *err)
{
	int ret = c2c_session_read(opts, out, err);

	if (!ret && opts->attribute)
		attribute(*out);
	return ret;
}
