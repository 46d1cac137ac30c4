/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A c2c session: one perf.data read into address spaces and the c2c model,
 * with what the report prints around it (event names, warnings). The
 * command layer opens it, renders it (c2c_text, c2c_json) and frees it.
 */
#ifndef C2C_C2C_SESSION_H
#define C2C_C2C_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "c2c/c2c_model.h"
#include "symbols/addr_space.h"
#include "symbols/resolve.h"
#include "util/err.h"
#include "util/strbuf.h"

struct progress;
struct c2c_attrib;

struct c2c_session_opts {
	const char *path; /* "-" reads a pipe from stdin */
	struct c2c_model_opts model; /* cpus, nodes and memory come from the file */
	bool display_given; /* else: peer on arm64 (no HITM there), tot elsewhere */
	struct sym_resolver_opts symbols;
	bool full_symbols;
	/* Name the fields of each row (c2c_attrib.h) once the model is finished. */
	bool attribute;
	/*
	 * Kernel debug files besides symbols.vmlinux (--kernel-debug: a .ko,
	 * a single .o); with neither, a vmlinux is searched for (c2c_kernel.h).
	 */
	const char *const *kernel_debug;
	size_t nr_kernel_debug;
	struct progress *progress; /* may be NULL */
};

/* The recording machine, from the file's header features (NULL: absent). */
struct c2c_machine {
	char *hostname, *osrelease, *arch, *cpudesc, *perf_version;
	uint32_t nr_cpus_online, nr_cpus_avail, nr_nodes;
	uint64_t total_mem; /* kB */
	/* The kernel's build-id from the BUILD_ID feature ([kernel.kallsyms]); size 0: none. */
	uint8_t kernel_build_id[20];
	uint8_t kernel_build_id_size;
};

struct c2c_session {
	struct c2c_session_opts opts;
	struct c2c_machine machine;
	struct c2c_model *model;
	/*
	 * The sink samples go to while the file is read: the model itself, or
	 * with opts.model.threads > 1 these aggregation threads, whose
	 * models are absorbed into model before it is finished. Either way
	 * the model is only touched by one thread at a time.
	 */
	struct c2c_workers *workers;
	struct addr_spaces *spaces;
	struct sym_resolver *symbols;
	char **event_names;
	size_t nr_events;
	uint64_t nr_samples;
	/* periods of the HITM and store-miss samples (1 unless a sampled recording) */
	uint64_t hitm_period_min, hitm_period_max;
	struct strbuf warnings; /* one per line, for the command to print */
	int *cpu2node;
	struct c2c_mem_range *mem;
	/*
	 * Heap blocks from the file (record --sim: PERF_FEAT_C2C_HEAP_BLOCKS);
	 * NULL when it has none, as a PMU recording has no allocation events.
	 */
	struct heap_table *heap;
	/* Set by c2c_session_load when opts.attribute (c2c_load.c). */
	struct c2c_attrib *attrib;
	void (*attrib_free)(struct c2c_attrib *ca);
};

/*
 * Read the whole file. Damage after some records is a warning (the
 * session holds what was read); a file that cannot be opened, or damage
 * before any sample, is an error. c2c_session_read only reads and
 * aggregates; c2c_session_load (c2c_load.c) also names the rows' fields
 * when opts->attribute.
 */
int c2c_session_read(const struct c2c_session_opts *opts, struct c2c_session **out,
		     struct err_msg *err);
int c2c_session_load(const struct c2c_session_opts *opts, struct c2c_session **out,
		     struct err_msg *err);
void c2c_session_free(struct c2c_session *s);
/*
 * Read a perf.data for a struct profile: the report's defaults (offset,
 * iaddr rows), field attribution on, kernel code through KERNEL's files
 * (may be NULL). Warnings stay in (*out)->warnings.
 * (c2c_load.c; c2c_attrib.h, which includes this header, declared it before.)
 */
struct c2c_kernel_files {
	const char *vmlinux, *kallsyms; /* NULL: search for one, /proc/kallsyms */
	const char *const *debug; /* --kernel-debug */
	size_t nr_debug;
};
int c2c_session_load_profile(const char *path, const struct c2c_kernel_files *kernel,
			     struct c2c_session **out, struct err_msg *err);

/* Render the report as perf c2c report --stdio's sections, in order. */
void c2c_text_render(struct c2c_session *s, struct strbuf *out, bool stats_only);

/* Every number of the report, labelled as perf labels it. */
struct c2c_figure {
	const char *label; /* "Load Local HITM" */
	const char *key; /* "lcl_hitm" */
	double value;
	bool percent;
};
size_t c2c_trace_figures(const struct c2c_model *m, struct c2c_figure *out, size_t max);
size_t c2c_shared_figures(const struct c2c_model *m, struct c2c_figure *out, size_t max);

#endif
