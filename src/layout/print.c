// SPDX-License-Identifier: GPL-2.0
/*
 * pahole 1.24's struct text (dwarves_fprintf.c: __class__fprintf,
 * union__fprintf, class_member__fprintf), ported so that the output is
 * byte-for-byte the same, legacy comments ("Bitfield combined with ...",
 * "Force alignment to the next boundary", "Force padding") included.
 * Nested anonymous structs and unions print inline with absolute offsets.
 */
#include "layout/layout_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define PACKED_ATTR "__attribute__((__packed__))"

static const char tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";

struct pconf {
	const struct layout_print_opts *o;
	const struct layout *top; /* the outermost struct's analysis (groups) */
	unsigned int cl;
	int indent;
	int type_spacing, name_spacing;
	uint64_t base_offset;
	uint32_t *cachelinep;
	bool union_member, first_member, last_member;
	bool emit_stats;
	bool marked_packed; /* the parent's inference marked this struct packed */
	bool rel_offset; /* inside "struct {...} * name": offsets from that struct */
	const char *suffix;
};

static void add_tabs(struct strbuf *sb, int n)
{
	if (n > (int)sizeof(tabs) - 1)
		n = sizeof(tabs) - 1;
	if (n > 0)
		strbuf_add(sb, tabs, (size_t)n);
}

/* printf's "%*llu" without printf: the hot path of every member line. */
static void add_uint(struct strbuf *sb, uint64_t v, int width)
{
	char digits[24];
	int n = 0;

	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	if (width > n)
		strbuf_addchars(sb, ' ', (size_t)(width - n));
	while (n)
		strbuf_addch(sb, digits[--n]);
}

static const char *plural(uint64_t n)
{
	return n != 1 ? "s" : "";
}

static bool is_inline_kind(const struct type *t)
{
	return t && (t->kind == TYPE_STRUCT || t->kind == TYPE_UNION || t->kind == TYPE_ENUM);
}

static void class_fprintf(struct strbuf *sb, const struct type *t, const struct pconf *c);
static void union_fprintf(struct strbuf *sb, const struct type *t, const struct pconf *c);

static void cacheline_boundary(struct strbuf *sb, const struct pconf *c, uint64_t offset)
{
	uint32_t line = (uint32_t)(offset / c->cl);
	uint32_t pos = (uint32_t)(offset % c->cl);

	if (line <= *c->cachelinep)
		return;
	if (pos == 0)
		strbuf_addf(sb, "/* --- cacheline %u boundary (%u bytes) --- */\n", line,
			    (unsigned int)(offset - pos));
	else
		strbuf_addf(sb,
			    "/* --- cacheline %u boundary (%u bytes) was %u byte%s ago --- */\n",
			    line, (unsigned int)(offset - pos), pos, plural(pos));
	add_tabs(sb, c->indent);
	*c->cachelinep = line;
}

static void enum_fprintf(struct strbuf *sb, const struct type *t, const struct pconf *c)
{
	int width = 0;
	uint32_t i;

	strbuf_addf(sb, "enum%s%s", t->name ? " " : "", t->name ? t->name : "");
	if (!t->nr_enumerators)
		return;
	for (i = 0; i < t->nr_enumerators; i++)
		if ((int)strlen(t->enumerators[i].name) > width)
			width = (int)strlen(t->enumerators[i].name);
	strbuf_addstr(sb, " {\n");
	for (i = 0; i < t->nr_enumerators; i++) {
		const struct type_enumerator *e = &t->enumerators[i];

		add_tabs(sb, c->indent);
		strbuf_addf(sb, "\t%-*s = ", width, e->name);
		if (c->o->hex)
			strbuf_addf(sb, "%#llx", (unsigned long long)e->value);
		else if (e->value < 0)
			strbuf_addf(sb, "%lld", (long long)e->value);
		else
			strbuf_addf(sb, "%llu", (unsigned long long)e->value);
		strbuf_addstr(sb, ",\n");
	}
	add_tabs(sb, c->indent);
	strbuf_addch(sb, '}');
	if (t->size != 4)
		strbuf_addstr(sb, " " PACKED_ATTR);
}

/*
 * type__fprintf for a member's type. Struct, union and enum types print
 * their name (or their body when anonymous or expanded); name is appended
 * by the caller for those.
 */
static bool prints_inline(const struct type *t, bool expand)
{
	return is_inline_kind(t) && (!t->name || (expand && t->kind != TYPE_ENUM));
}

/*
 * pahole's DW_TAG_const_type case: "const " then the body of an anonymous
 * aggregate, printed with the enclosing conf (its summary block and suffix
 * included, the member's name not).
 */
static bool const_inline(struct strbuf *sb, const struct type *t, const struct pconf *c)
{
	struct pconf tc = *c;
	const struct type *u = t;

	while (u && u->kind == TYPE_CONST && u->target)
		u = u->target;
	if (u == t || !prints_inline(u, c->o->expand))
		return false;
	for (; t != u; t = t->target) {
		strbuf_addstr(sb, "const ");
		tc.type_spacing -= 6;
	}
	if (u->kind == TYPE_ENUM) {
		enum_fprintf(sb, u, &tc);
		if (tc.suffix)
			strbuf_addf(sb, " %s", tc.suffix);
		return true;
	}
	tc.type_spacing -= 8;
	if (u->kind == TYPE_STRUCT)
		class_fprintf(sb, u, &tc);
	else
		union_fprintf(sb, u, &tc);
	return true;
}

/*
 * pahole's pointer to an anonymous struct/union/enum: the body inline, then
 * "* name", member offsets relative to the pointed-to struct.
 */
static void pointer_to_anonymous(struct strbuf *sb, const struct type *t, const char *name,
				 const struct pconf *c)
{
	struct strbuf pname = STRBUF_INIT;
	struct pconf tc = *c;

	strbuf_addstr(&pname, "* ");
	strbuf_addstr(&pname, name ? name : "");
	tc.rel_offset = true;
	tc.type_spacing -= 8;
	tc.suffix = pname.buf;
	tc.emit_stats = false;
	if (t->kind == TYPE_ENUM) {
		enum_fprintf(sb, t, &tc);
		strbuf_addch(sb, ' ');
		strbuf_addstr(sb, pname.buf);
	} else {
		tc.type_spacing -= 8;
		if (t->kind == TYPE_STRUCT)
			class_fprintf(sb, t, &tc);
		else
			union_fprintf(sb, t, &tc);
	}
	strbuf_release(&pname);
}

static void type_fprintf(struct strbuf *sb, const struct type *t, const char *name,
			 const struct pconf *c)
{
	struct type_decl_ctx ctx = { c->first_member, c->last_member, c->union_member, false };
	struct pconf tc = *c;
	bool expand = c->o->expand;

	if (expand && t && t->kind == TYPE_TYPEDEF) {
		strbuf_addf(sb, "/* typedef %s", t->name);
		for (t = t->target; t && t->kind == TYPE_TYPEDEF; t = t->target)
			strbuf_addf(sb, " -> %s", t->name);
		strbuf_addstr(sb, " */ ");
	}
	if (const_inline(sb, t, c))
		return;
	if (t && t->kind == TYPE_ARRAY && (expand || prints_inline(type_array_elem(t), false))) {
		/* array_type__fprintf: the element's type__fprintf, then "[N]" */
		type_fprintf(sb, type_array_elem(t), name, c);
		type_format_dims(sb, t, &ctx);
		return;
	}
	if (t && t->kind == TYPE_POINTER && prints_inline(t->target, false)) {
		pointer_to_anonymous(sb, t->target, name, c);
		return;
	}
	if (!prints_inline(t, expand)) {
		type_format_pahole_decl(sb, t, name, c->type_spacing, &ctx);
		return;
	}
	tc.suffix = name;
	tc.emit_stats = false;
	if (t->kind == TYPE_ENUM) {
		enum_fprintf(sb, t, &tc);
		if (name)
			strbuf_addf(sb, " %s", name);
		return;
	}
	tc.type_spacing -= 8;
	if (t->kind == TYPE_STRUCT)
		class_fprintf(sb, t, &tc);
	else
		union_fprintf(sb, t, &tc);
}

static void offset_comment(struct strbuf *sb, const struct pconf *c, int spacing, uint64_t offset,
			   const struct type_member *m, uint64_t size, uint32_t bitfield_offset)
{
	bool hex = c->o->hex;
	int size_spacing = 5;

	if (spacing < 0)
		spacing = -spacing; /* printf's "%*s" with a negative width */
	if (hex) {
		strbuf_addf(sb, "%*s/* %#5x", spacing, " ", (unsigned int)offset);
		if (m->bit_size) {
			strbuf_addf(sb, ":%#2x", bitfield_offset);
			size_spacing -= 3;
		}
		strbuf_addf(sb, " %#*x */", size_spacing, (unsigned int)size);
	} else {
		strbuf_addchars(sb, ' ', spacing > 1 ? (size_t)spacing : 1);
		strbuf_addstr(sb, "/* ");
		add_uint(sb, (unsigned int)offset, 5);
		if (m->bit_size) {
			strbuf_addch(sb, ':');
			add_uint(sb, bitfield_offset, 2);
			size_spacing -= 3;
		}
		strbuf_addch(sb, ' ');
		add_uint(sb, (unsigned int)size, size_spacing);
		strbuf_addstr(sb, " */");
	}
	if (c->o->annotate)
		c->o->annotate(sb, m, offset, size, (unsigned int)(c->indent - 1),
			       c->o->annotate_arg);
}

static void member_fprintf(struct strbuf *sb, const struct type_member *m, bool union_member,
			   bool packed, const struct pconf *c)
{
	struct pconf sc = *c;
	const struct type *t = m->type;
	uint64_t offset, size;
	uint32_t bf_off;
	size_t start;
	int aligned_len = 0;

	layout_member_geometry(m, &offset, &size, &bf_off);
	if (!sc.rel_offset) {
		offset += sc.base_offset;
		if (!union_member)
			sc.base_offset = offset;
	}
	sc.marked_packed = packed;
	cacheline_boundary(sb, c, offset);
	start = sb->len;
	if (is_inline_kind(t)) {
		type_fprintf(sb, t, NULL, &sc);
		if (m->name) {
			if (!t->name)
				strbuf_addch(sb, ' ');
			strbuf_addstr(sb, m->name);
		}
	} else {
		type_fprintf(sb, t, m->name, &sc);
	}
	if (m->bit_size) {
		strbuf_addch(sb, ':');
		add_uint(sb, m->bit_size, 0);
	}
	if (m->alignment) {
		size_t before = sb->len;

		strbuf_addf(sb, " __attribute__((__aligned__(%u)))", m->alignment);
		aligned_len = (int)(sb->len - before);
	}
	strbuf_addch(sb, ';');
	if (is_inline_kind(t) && !t->name) {
		int slen = aligned_len + (m->name ? (int)strlen(m->name) : -1);

		if (t->kind == TYPE_STRUCT && (packed || layout_infer_packed(t)))
			slen += (int)sizeof(PACKED_ATTR);
		offset_comment(sb, c, sc.type_spacing + sc.name_spacing - slen - 3, offset, m, size,
			       bf_off);
	} else {
		int spacing = sc.type_spacing + sc.name_spacing - (int)(sb->len - start);

		offset_comment(sb, c, spacing > 0 ? spacing : 0, offset, m, size, bf_off);
	}
}

static void union_fprintf(struct strbuf *sb, const struct type *t, const struct pconf *c)
{
	struct pconf uc = *c;
	uint32_t line = 0, initial, i;
	int indent = c->indent;

	if (indent > (int)sizeof(tabs) - 1)
		indent = sizeof(tabs) - 1;
	strbuf_addf(sb, "union%s%s {\n", t->name ? " " : "", t->name ? t->name : "");
	uc.indent = indent + 1;
	if (!uc.cachelinep)
		uc.cachelinep = &line;
	initial = *uc.cachelinep;
	for (i = 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];
		const struct type *mt = type_strip(m->type);
		/* pahole: a struct whose alignment breaks in an array of unions */
		bool packed = mt && mt->kind == TYPE_STRUCT &&
			      t->size % type_natural_alignment(mt) != 0;

		uc.union_member = true;
		add_tabs(sb, uc.indent);
		member_fprintf(sb, m, true, packed, &uc);
		strbuf_addch(sb, '\n');
		*uc.cachelinep = initial;
	}
	add_tabs(sb, indent);
	strbuf_addf(sb, "}%s%s", c->suffix ? " " : "", c->suffix ? c->suffix : "");
}

struct class_state {
	struct layout_summary hs; /* holes and padding of this struct */
	struct layout_member *lm; /* geometry and holes per member */
	bool *child_packed; /* members' struct types marked packed by us */
	uint64_t sum_bytes, sum_bits, sum_holes, sum_bit_holes, sum_paddings;
	uint64_t sum_forced_holes;
	uint32_t nr_paddings, nr_forced, nr_forced_holes;
	int newline;
	const struct layout_member *last;
	uint64_t last_size;
};

static void class_state_init(struct class_state *cs, const struct type *t)
{
	uint32_t i, n = t->nr_members ? t->nr_members : 1;

	memset(cs, 0, sizeof(*cs));
	cs->lm = xcalloc(n, sizeof(*cs->lm));
	cs->child_packed = xcalloc(n, sizeof(*cs->child_packed));
	for (i = 0; i < t->nr_members; i++) {
		struct layout_member *lm = &cs->lm[i];

		lm->member = &t->members[i];
		lm->bit_size = t->members[i].bit_size;
		layout_member_geometry(lm->member, &lm->offset, &lm->size, &lm->bitfield_offset);
	}
	layout_find_holes(t, cs->lm, &cs->hs);
	/* type__check_structs_at_unnatural_alignments */
	if (cs->hs.padding == 0 && cs->hs.nr_holes == 0)
		return;
	for (i = 0; i < t->nr_members; i++) {
		const struct type *mt = type_strip(t->members[i].type);

		if (mt && mt->kind == TYPE_STRUCT &&
		    cs->lm[i].offset % type_natural_alignment(mt) != 0)
			cs->child_packed[i] = true;
	}
}

static void class_state_release(struct class_state *cs)
{
	free(cs->lm);
	free(cs->child_packed);
}

/* Start a comment block: pahole's "if (!newline++) fputc('\n')". */
static void open_block(struct strbuf *sb, struct class_state *cs)
{
	if (!cs->newline++)
		strbuf_addch(sb, '\n');
}

static void hole_comment(struct strbuf *sb, struct class_state *cs, int indent, uint64_t n,
			 const char *unit, bool leading_newline)
{
	open_block(sb, cs);
	if (leading_newline)
		strbuf_addch(sb, '\n');
	add_tabs(sb, indent);
	strbuf_addf(sb, "/* XXX %llu %s%s hole, try to pack */", (unsigned long long)n, unit,
		    plural(n));
	if (!leading_newline)
		strbuf_addch(sb, '\n');
}

static void unnamed_bitfield(struct strbuf *sb, const struct type *t, unsigned int bits,
			     const struct pconf *c)
{
	add_tabs(sb, c->indent);
	type_fprintf(sb, t, "", c);
	strbuf_addf(sb, ":%u;\n", bits);
}

/* The legacy bitfield comments pahole prints before member pos. */
static void bitfield_notes(struct strbuf *sb, struct class_state *cs,
			   const struct layout_member *pos, const struct pconf *c)
{
	const struct layout_member *last = cs->last;

	if (!last || cs->last_size == 0)
		return;
	if (last->bit_hole != 0 && pos->bit_size) {
		unsigned int bits = last->bit_hole;

		if (last->offset != pos->offset) {
			strbuf_addstr(sb, "\n");
			add_tabs(sb, c->indent);
			strbuf_addstr(sb, "/* Force alignment to the next boundary: */\n");
			bits = 0;
		}
		unnamed_bitfield(sb, pos->member->type, bits, c);
	}
	if (pos->offset < last->offset ||
	    (pos->offset == last->offset && last->bit_size == 0 && pos->bit_size != 0)) {
		open_block(sb, cs);
		add_tabs(sb, c->indent);
		strbuf_addstr(sb, "/* Bitfield combined with previous fields */\n");
	} else if (pos->offset > last->offset && pos->offset - last->offset < cs->last_size) {
		open_block(sb, cs);
		add_tabs(sb, c->indent);
		strbuf_addstr(sb, "/* Bitfield combined with next fields */\n");
	}
}

/* Comments after member pos: nested padding, bit hole, byte hole. */
static void member_notes(struct strbuf *sb, struct class_state *cs, const struct layout_member *pos,
			 const struct pconf *c)
{
	const struct type *mt = pos->member->type;

	if (mt && mt->kind == TYPE_STRUCT) {
		uint64_t padding = layout_struct_padding(mt);

		if (padding > 0) {
			cs->nr_paddings++;
			cs->sum_paddings += padding;
			open_block(sb, cs);
			strbuf_addch(sb, '\n');
			add_tabs(sb, c->indent);
			strbuf_addf(sb, "/* XXX last struct has %llu byte%s of padding */",
				    (unsigned long long)padding, plural(padding));
		}
	}
	if (pos->bit_hole) {
		hole_comment(sb, cs, c->indent, pos->bit_hole, "bit", true);
		cs->sum_bit_holes += pos->bit_hole;
	}
	if (pos->hole) {
		hole_comment(sb, cs, c->indent, pos->hole, "byte", true);
		cs->sum_holes += pos->hole;
	}
	strbuf_addch(sb, '\n');
}

static void account_member(struct class_state *cs, const struct layout_member *pos)
{
	if (pos->member->alignment) {
		uint64_t hole = cs->last ? cs->last->hole : cs->hs.pre_hole;

		if (hole) {
			cs->nr_forced_holes++;
			cs->sum_forced_holes += hole;
		}
		cs->nr_forced++;
	}
}

static void account_sizes(struct class_state *cs, const struct layout_member *pos)
{
	const struct layout_member *last = cs->last;

	if (pos->bit_size)
		cs->sum_bits += pos->bit_size;
	else
		cs->sum_bytes += pos->size;
	if (!last || cs->last_size == 0 || last->offset != pos->offset)
		cs->last_size = pos->size;
	else if (last->bit_size == 0 && pos->bit_size != 0)
		cs->last_size = pos->size;
	cs->last = pos;
}

static bool is_power_of_2(uint64_t n)
{
	return n && !(n & (n - 1));
}

static void force_padding(struct strbuf *sb, const struct type *t, struct class_state *cs,
			  const struct pconf *c)
{
	const struct type *lt;
	uint64_t size, added;

	if (cs->hs.padding == 0 || t->alignment != 0 || c->o->btf || !cs->last)
		return;
	lt = cs->last->member->type;
	size = type_size(lt);
	if (!is_power_of_2(size) || cs->hs.padding <= 8)
		return;
	strbuf_addch(sb, '\n');
	add_tabs(sb, c->indent);
	strbuf_addstr(sb, "/* Force padding: */\n");
	for (added = 0; added < cs->hs.padding; added += size)
		unnamed_bitfield(sb, lt, (unsigned int)(size * 8), c);
}

static void stats_holes(struct strbuf *sb, const struct class_state *cs, int indent)
{
	if (cs->sum_holes == 0 && cs->sum_bit_holes == 0)
		return;
	if (cs->sum_bytes > 0) {
		add_tabs(sb, indent);
		strbuf_addf(sb, "/* sum members: %llu", (unsigned long long)cs->sum_bytes);
		if (cs->sum_holes > 0)
			strbuf_addf(sb, ", holes: %u, sum holes: %llu", cs->hs.nr_holes,
				    (unsigned long long)cs->sum_holes);
		strbuf_addstr(sb, " */\n");
	}
	if (cs->sum_bits > 0) {
		add_tabs(sb, indent);
		strbuf_addf(sb, "/* sum bitfield members: %llu bits",
			    (unsigned long long)cs->sum_bits);
		if (cs->sum_bit_holes > 0)
			strbuf_addf(sb, ", bit holes: %u, sum bit holes: %llu bits",
				    cs->hs.nr_bit_holes, (unsigned long long)cs->sum_bit_holes);
		else
			strbuf_addf(sb, " (%llu bytes)", (unsigned long long)cs->sum_bits / 8);
		strbuf_addstr(sb, " */\n");
	}
}

static void stats(struct strbuf *sb, const struct type *t, const struct class_state *cs,
		  const struct pconf *c)
{
	int in = c->indent;
	uint64_t last_line = (c->base_offset + t->size) % c->cl;
	int64_t diff;

	strbuf_addch(sb, '\n');
	add_tabs(sb, in);
	strbuf_addf(sb, "/* size: %llu, cachelines: %llu, members: %u */\n",
		    (unsigned long long)t->size,
		    (unsigned long long)((t->size + c->cl - 1) / c->cl), t->nr_members);
	stats_holes(sb, cs, in);
	if (cs->hs.padding > 0) {
		add_tabs(sb, in);
		strbuf_addf(sb, "/* padding: %llu */\n", (unsigned long long)cs->hs.padding);
	}
	if (cs->nr_paddings > 0) {
		add_tabs(sb, in);
		strbuf_addf(sb, "/* paddings: %u, sum paddings: %llu */\n", cs->nr_paddings,
			    (unsigned long long)cs->sum_paddings);
	}
	if (cs->hs.bit_padding > 0) {
		add_tabs(sb, in);
		strbuf_addf(sb, "/* bit_padding: %u bits */\n", cs->hs.bit_padding);
	}
	if (cs->nr_forced) {
		add_tabs(sb, in);
		strbuf_addf(sb, "/* forced alignments: %u", cs->nr_forced);
		if (cs->nr_forced_holes)
			strbuf_addf(sb, ", forced holes: %u, sum forced holes: %llu",
				    cs->nr_forced_holes, (unsigned long long)cs->sum_forced_holes);
		strbuf_addstr(sb, " */\n");
	}
	if (last_line) {
		add_tabs(sb, in);
		strbuf_addf(sb, "/* last cacheline: %llu bytes */\n",
			    (unsigned long long)last_line);
	}
	diff = (int64_t)(t->size * 8) -
	       (int64_t)(cs->sum_bytes * 8 + cs->sum_bits + cs->sum_holes * 8 + cs->sum_bit_holes +
			 cs->hs.padding * 8 + cs->hs.bit_padding);
	if (diff && t->nr_members) {
		strbuf_addch(sb, '\n');
		add_tabs(sb, in);
		strbuf_addf(
			sb,
			"/* BRAIN FART ALERT! %llu bytes != %llu (member bytes) + %llu (member bits) + %llu (byte holes) + %llu (bit holes), diff = %lld bits */\n",
			(unsigned long long)t->size, (unsigned long long)cs->sum_bytes,
			(unsigned long long)cs->sum_bits, (unsigned long long)cs->sum_holes,
			(unsigned long long)cs->sum_bit_holes, (long long)diff);
	}
}

static void pre_holes(struct strbuf *sb, struct class_state *cs, int indent)
{
	if (cs->hs.pre_bit_hole > 0) {
		hole_comment(sb, cs, indent, cs->hs.pre_bit_hole, "bit", false);
		cs->sum_bit_holes += cs->hs.pre_bit_hole;
	}
	if (cs->hs.pre_hole > 0) {
		hole_comment(sb, cs, indent, cs->hs.pre_hole, "byte", false);
		cs->sum_holes += cs->hs.pre_hole;
	}
}

static const struct layout_group *group_at(const struct pconf *c, uint32_t i, bool begin)
{
	const struct layout_group *g;
	uint32_t n, k;

	if (!c->top || c->indent != 1)
		return NULL;
	g = layout_groups(c->top, &n);
	for (k = 0; k < n; k++)
		if ((begin ? g[k].first_member : g[k].end_member) == i)
			return &g[k];
	return NULL;
}

static void group_band(struct strbuf *sb, const struct pconf *c, uint32_t i, bool begin)
{
	const struct layout_group *g = group_at(c, i, begin);

	if (!g)
		return;
	add_tabs(sb, c->indent);
	if (!begin) {
		strbuf_addf(sb, "/* === end of cacheline group %s === */\n", g->name);
		return;
	}
	strbuf_addf(sb, "/* === cacheline group %s: %llu bytes used of %llu, ", g->name,
		    (unsigned long long)g->bytes_used, (unsigned long long)(g->end - g->start));
	if (g->nr_lines == 0)
		strbuf_addstr(sb, "no cachelines");
	else if (g->nr_lines == 1)
		strbuf_addf(sb, "1 cacheline (%u)", g->first_line);
	else
		strbuf_addf(sb, "%u cachelines (%u-%u)", g->nr_lines, g->first_line, g->last_line);
	strbuf_addstr(sb, " === */\n");
}

/* Whether top-level member pos is outside the excerpt being printed. */
static bool excluded(const struct pconf *c, const struct layout_member *pos)
{
	const struct layout_print_opts *o = c->o;
	uint64_t end = pos->offset + (pos->size ? pos->size : 1);

	if (c->indent != 1 || o->range_end <= o->range_start)
		return false;
	return end <= o->range_start || pos->offset >= o->range_end;
}

static void one_member(struct strbuf *sb, const struct type *t, struct class_state *cs, uint32_t i,
		       struct pconf *cc)
{
	const struct layout_member *pos = &cs->lm[i];

	account_member(cs, pos);
	bitfield_notes(sb, cs, pos, cc);
	if (cs->newline) {
		strbuf_addch(sb, '\n');
		cs->newline = 0;
	}
	group_band(sb, cc, i, true);
	cc->last_member = i + 1 == t->nr_members;
	cc->first_member = cs->last == NULL;
	add_tabs(sb, cc->indent);
	member_fprintf(sb, pos->member, false, cs->child_packed[i], cc);
	member_notes(sb, cs, pos, cc);
	group_band(sb, cc, i, false);
	account_sizes(cs, pos);
}

static void members(struct strbuf *sb, const struct type *t, struct class_state *cs,
		    struct pconf *cc)
{
	struct strbuf tmp = STRBUF_INIT;
	struct layout_print_opts quiet_opts;
	struct pconf quiet;
	bool skipping = false;
	uint32_t i, line;

	for (i = 0; i < t->nr_members; i++) {
		if (!excluded(cc, &cs->lm[i])) {
			one_member(sb, t, cs, i, cc);
			skipping = false;
			continue;
		}
		/* Keep the running sums, drop the text; say that lines are left out. */
		line = *cc->cachelinep;
		strbuf_reset(&tmp);
		quiet_opts = *cc->o;
		quiet_opts.annotate = NULL;
		quiet = *cc;
		quiet.o = &quiet_opts;
		one_member(&tmp, t, cs, i, &quiet);
		*cc->cachelinep = line;
		if (!skipping) {
			add_tabs(sb, cc->indent);
			strbuf_addstr(sb, "/* ... */\n");
		}
		skipping = true;
	}
	strbuf_release(&tmp);
}

static void class_fprintf(struct strbuf *sb, const struct type *t, const struct pconf *c)
{
	struct class_state cs;
	struct pconf cc = *c;
	uint32_t line = 0;
	int indent = c->indent;
	bool packed;

	if (indent > (int)sizeof(tabs) - 1)
		indent = sizeof(tabs) - 1;
	strbuf_addf(sb, "struct%s%s {\n", t->name ? " " : "", t->name ? t->name : "");
	if (!cc.cachelinep)
		cc.cachelinep = &line;
	cc.indent = indent + 1;
	packed = c->marked_packed || layout_infer_packed(t);
	class_state_init(&cs, t);
	pre_holes(sb, &cs, cc.indent);
	members(sb, t, &cs, &cc);
	force_padding(sb, t, &cs, &cc);
	if (c->emit_stats)
		stats(sb, t, &cs, &cc);
	add_tabs(sb, indent);
	strbuf_addch(sb, '}');
	if (packed)
		strbuf_addstr(sb, " " PACKED_ATTR);
	if (c->suffix)
		strbuf_addf(sb, " %s", c->suffix);
	if (t->alignment && !packed)
		strbuf_addf(sb, " __attribute__((__aligned__(%u)))", t->alignment);
	class_state_release(&cs);
}

static void init_conf(struct pconf *c, const struct type *t, const struct layout_print_opts *o,
		      uint32_t *line)
{
	memset(c, 0, sizeof(*c));
	c->o = o;
	c->cl = o->cacheline_size ? o->cacheline_size : 64;
	c->type_spacing = 26;
	if (o->expand)
		c->name_spacing = 55;
	else
		c->name_spacing = t->kind == TYPE_UNION ? 21 : 23;
	c->emit_stats = true;
	c->cachelinep = line;
}

/*
 * A typedef asked for by name (-C foo_t), as pahole prints it: the body of
 * the anonymous struct or union it names ("typedef struct {...} foo_t;"),
 * else one line ("typedef struct foo foo_t;").
 */
static void typedef_fprintf(struct strbuf *sb, const struct type *t,
			    const struct layout_print_opts *o)
{
	const struct type *target = t->target;
	struct type_decl_ctx ctx = { false, false, false, false };
	struct pconf c;
	uint32_t line = 0;

	strbuf_addstr(sb, "typedef ");
	if (target && (target->kind == TYPE_STRUCT || target->kind == TYPE_UNION) &&
	    !target->name) {
		init_conf(&c, target, o, &line);
		c.suffix = t->name;
		if (target->kind == TYPE_STRUCT)
			class_fprintf(sb, target, &c);
		else
			union_fprintf(sb, target, &c);
	} else {
		type_format_pahole_decl(sb, target, t->name, 0, &ctx);
	}
	strbuf_addstr(sb, ";\n");
}

void layout_print(struct strbuf *sb, const struct type *t, const struct layout_print_opts *opts)
{
	static const struct layout_print_opts defaults;
	const struct layout_print_opts *o = opts ? opts : &defaults;
	struct layout *l = NULL;
	struct pconf c;
	uint32_t line = 0;

	if (t && t->kind == TYPE_TYPEDEF && t->name) {
		typedef_fprintf(sb, t, o);
		return;
	}
	t = type_strip(t);
	if (!t || (t->kind != TYPE_STRUCT && t->kind != TYPE_UNION))
		return;
	init_conf(&c, t, o, &line);
	if (o->groups && layout_analyze(t, c.cl, &l, NULL) == 0)
		c.top = l;
	if (!t->name && t->typedef_name) { /* as -C NAME prints the typedef */
		strbuf_addstr(sb, "typedef ");
		c.suffix = t->typedef_name;
	}
	if (t->kind == TYPE_STRUCT)
		class_fprintf(sb, t, &c);
	else
		union_fprintf(sb, t, &c);
	strbuf_addstr(sb, ";\n");
	layout_free(l);
}

void layout_print_sizes(struct strbuf *sb, const struct type *t)
{
	struct layout_summary sum;
	const char *name = t ? t->name : NULL; /* a typedef's, for an anonymous struct */

	t = type_strip(t);
	if (!t)
		return;
	layout_find_holes(t, NULL, &sum);
	if (type_aggregate_name(t))
		name = type_aggregate_name(t);
	strbuf_addf(sb, "%s\t%llu\t%u\n", name ? name : "", (unsigned long long)t->size,
		    t->kind == TYPE_UNION ? 0 : sum.nr_holes);
}
