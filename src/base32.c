/* base32.c: the Crockford alphabet of SPEC (ULID and relative IDs). */
#include "internal.h"

MINTID_INTERNAL_DATA const char mintid_base32_alphabet[33] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/* Entry v is the symbols of v >> 5 and v & 31: an encoder writes two
 * symbols with one load and one 2-byte store. */
#define B32_ROW(c)                                                                          \
    { c, '0' }, { c, '1' }, { c, '2' }, { c, '3' }, { c, '4' }, { c, '5' }, { c, '6' },     \
    { c, '7' }, { c, '8' }, { c, '9' }, { c, 'A' }, { c, 'B' }, { c, 'C' }, { c, 'D' },     \
    { c, 'E' }, { c, 'F' }, { c, 'G' }, { c, 'H' }, { c, 'J' }, { c, 'K' }, { c, 'M' },     \
    { c, 'N' }, { c, 'P' }, { c, 'Q' }, { c, 'R' }, { c, 'S' }, { c, 'T' }, { c, 'V' },     \
    { c, 'W' }, { c, 'X' }, { c, 'Y' }, { c, 'Z' }
MINTID_INTERNAL_DATA const char mintid_base32_pairs[1024][2] = {
    B32_ROW('0'), B32_ROW('1'), B32_ROW('2'), B32_ROW('3'), B32_ROW('4'), B32_ROW('5'), B32_ROW('6'), B32_ROW('7'),
    B32_ROW('8'), B32_ROW('9'), B32_ROW('A'), B32_ROW('B'), B32_ROW('C'), B32_ROW('D'), B32_ROW('E'), B32_ROW('F'),
    B32_ROW('G'), B32_ROW('H'), B32_ROW('J'), B32_ROW('K'), B32_ROW('M'), B32_ROW('N'), B32_ROW('P'), B32_ROW('Q'),
    B32_ROW('R'), B32_ROW('S'), B32_ROW('T'), B32_ROW('V'), B32_ROW('W'), B32_ROW('X'), B32_ROW('Y'), B32_ROW('Z')
};

/* Indexed by the ASCII value of the input byte (IDs are ASCII text).
 * Both cases map to the same value (decoding is case-insensitive), and
 * I, L, O, U stay -1: SPEC drops Crockford's aliases so that every ID has
 * exactly one text form. */
MINTID_INTERNAL_DATA const signed char mintid_base32_values[256] = {
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, /* 0x00 */
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, /* 0x10 */
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, /* 0x20 */
     0,  1,  2,  3,  4,  5,  6,  7,  8,  9, -1, -1, -1, -1, -1, -1, /* 0x30 */
    -1, 10, 11, 12, 13, 14, 15, 16, 17, -1, 18, 19, -1, 20, 21, -1, /* 0x40 */
    22, 23, 24, 25, 26, -1, 27, 28, 29, 30, 31, -1, -1, -1, -1, -1, /* 0x50 */
    -1, 10, 11, 12, 13, 14, 15, 16, 17, -1, 18, 19, -1, 20, 21, -1, /* 0x60 */
    22, 23, 24, 25, 26, -1, 27, 28, 29, 30, 31, -1, -1, -1, -1, -1, /* 0x70 */
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, /* 0x80 */
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, /* 0x90 */
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, /* 0xa0 */
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, /* 0xb0 */
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, /* 0xc0 */
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, /* 0xd0 */
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, /* 0xe0 */
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, /* 0xf0 */
};

int mintid_base32_value(unsigned char c)
{
    return mintid_base32_values[c];
}
