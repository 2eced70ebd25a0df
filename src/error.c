/* error.c: the one-line messages every core function writes into err. */
#define __USE_MINGW_ANSI_STDIO 1 /* MinGW: C99 vsnprintf (%zu, %lld) */

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

int mintid_fail(char *err, int code, const char *fmt, ...)
{
    va_list ap;

    if (err != NULL) {
        va_start(ap, fmt);
        vsnprintf(err, MINTID_ERRMSG_SIZE, fmt, ap);
        va_end(ap);
    }
    return code;
}

const char *mintid_describe_byte(unsigned char c, char out[8])
{
    /* Quote only bytes a terminal shows unambiguously; a space or control
     * byte would vanish or break the one-line message. */
    if (c >= 0x21 && c <= 0x7E) {
        out[0] = '\'';
        out[1] = (char)c;
        out[2] = '\'';
        out[3] = '\0';
    } else {
        out[0] = '0';
        out[1] = 'x';
        memcpy(out + 2, mintid_hex_pairs[c], 2);
        out[4] = '\0';
    }
    return out;
}

int mintid_check_ms(int64_t ms, const char *kind, char *err)
{
    if (ms >= 0 && ms <= MINTID_MAX_MS)
        return MINTID_OK;
    return mintid_fail(err, MINTID_ERANGE, "%s timestamp %" PRId64 " out of range 0..%" PRId64,
                       kind, ms, MINTID_MAX_MS);
}

const char *mintid_strerror(int code)
{
    switch (code) {
    case MINTID_OK:        return "success";
    case MINTID_EPARSE:    return "invalid ID";
    case MINTID_ERANGE:    return "value out of range";
    case MINTID_EOVERFLOW: return "monotonic counter overflow";
    case MINTID_ERANDOM:   return "random source failed";
    case MINTID_ECLOCK:    return "clock could not be read";
    case MINTID_EAGAIN:    return "snowflake sequence exhausted, try again";
    case MINTID_EARG:      return "invalid argument";
    case MINTID_ENOMEM:    return "out of memory";
    case MINTID_EFORK:     return "generator made in another process";
    case MINTID_ELEASE:    return "snowflake lease does not allow minting now";
    default:               return "unknown error";
    }
}
