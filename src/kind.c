/*
 * kind.c: which kind of ID (or trace context header) a text is, read from
 * the text alone (the one rule mintid.kind_of and the CLI's inspect and
 * convert use).
 *
 * A traceparent header of any version is 55 chars or more with its
 * version's '-' third: no ID has that shape. No other kind has a '_', so a
 * text with one is a TypeID (whatever its length). A 26-char text is a
 * ULID: a relative ID without its hyphens has the same length and
 * alphabet, and so has a TypeID without prefix (a lowercase ULID of the
 * same 16 bytes), so the text alone cannot tell them apart; a caller who
 * knows better parses with that kind's parser.
 * A 24-char text is an ObjectId: no other kind has that length (Snowflake
 * digits are 20 at most). A 20-char text is an XID unless it is all digits:
 * 20 digits are the longest Snowflakes, and an XID of digits alone would be
 * from before 2012 with every other symbol below 'a' too.
 */
#define __USE_MINGW_ANSI_STDIO 1 /* MinGW: C99 snprintf (%zu) */

#include <stdio.h>
#include <string.h>

#include "internal.h"

static int all_digits(const char *text, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++)
        if (text[i] < '0' || text[i] > '9')
            return 0;
    return len > 0;
}

const char *mintid_kind_of(const char *text, size_t len, char *err)
{
    if (len >= MINTID_TRACEPARENT_LEN && text[2] == '-')
        return "traceparent";
    if (memchr(text, '_', len) != NULL)
        return "typeid";
    if (len == MINTID_UUID_TEXT_LEN)
        return "uuid";
    if (len == MINTID_RELATIVE_TEXT_LEN && text[6] == '-' && text[17] == '-')
        return "relative";
    if (len == MINTID_KSUID_TEXT_LEN)
        return "ksuid";
    if (len == MINTID_ULID_TEXT_LEN)
        return "ulid";
    if (len == MINTID_OBJECTID_TEXT_LEN)
        return "objectid";
    if (len == MINTID_XID_TEXT_LEN && !all_digits(text, len))
        return "xid";
    if (all_digits(text, len))
        return "snowflake";
    /* longer than MINTID_ERRMSG_SIZE: it names every kind */
    if (err != NULL)
        snprintf(err, MINTID_KIND_ERRMSG_SIZE, "unrecognised ID: length %zu (want a 26-char ULID, a 36-char UUID, "
                 "a 27-char KSUID, a TypeID prefix_suffix, a 28-char relative ID, a 24-char ObjectId, a 20-char XID, "
                 "Snowflake digits or a traceparent header)", len);
    return NULL;
}
