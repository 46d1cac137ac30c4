// SPDX-License-Identifier: GPL-2.0
/*
 * How -C names and globs select types, written once for every loader and
 * command. Below types.c (its only-list uses them); calls nothing else.
 */
#include "types/types.h"

#include <fnmatch.h>
#include <string.h>

bool type_name_is_glob(const char *pat)
{
	return strpbrk(pat, "*?[\\") != NULL;
}

bool type_name_matches(const char *pat, const char *name)
{
	if (!name)
		return false;
	/* Plain names (the common -C case) skip fnmatch's cost. */
	return type_name_is_glob(pat) ? !fnmatch(pat, name, 0) : !strcmp(pat, name);
}

bool type_name_wanted(const char *const *globs, const char *name)
{
	if (!globs)
		return true;
	for (; *globs; globs++)
		if (type_name_matches(*globs, name))
			return true;
	return false;
}
