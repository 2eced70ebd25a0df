/*
 * xid.c: XIDs (github rs/xid; SPEC "XID"): 4-byte seconds, a 3-byte machine
 * id, a 2-byte process id and a 3-byte counter from a random start
 * (seconds_counter.c); 20 characters of base32hex, lowercase, with 4 zero
 * bits after the 96, read strictly as rs/xid reads them.
 *
 * The machine and process ids are rs/xid's (id.go): the machine id is
 * XID_MACHINE_ID when that is a decimal number 0..16777215, else the first
 * 3 bytes of SHA-256 of the platform's machine id (os_hostid.c), of the
 * host name when there is none, 3 random bytes when neither can be read;
 * worked out once per process. The process id is the OS's, xor-ed with
 * the CRC-32 of /proc/self/cpuset when that holds more than one byte (a
 * container's processes then differ from another container's of the same
 * pid), its low 16 bits; worked out again in a forked child.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define START_BYTES 3
#define MAX_MACHINE_ID 0xFFFFFF

/* Entry v is the symbols of v >> 5 and v & 31 ("0123456789abcdefghijklmnopqrstuv"):
 * two symbols with one load and one 2-byte store, as base32.c's table
 * does for ULIDs. */
#define XID_ROW(c)                                                                          \
    { c, '0' }, { c, '1' }, { c, '2' }, { c, '3' }, { c, '4' }, { c, '5' }, { c, '6' },     \
    { c, '7' }, { c, '8' }, { c, '9' }, { c, 'a' }, { c, 'b' }, { c, 'c' }, { c, 'd' },     \
    { c, 'e' }, { c, 'f' }, { c, 'g' }, { c, 'h' }, { c, 'i' }, { c, 'j' }, { c, 'k' },     \
    { c, 'l' }, { c, 'm' }, { c, 'n' }, { c, 'o' }, { c, 'p' }, { c, 'q' }, { c, 'r' },     \
    { c, 's' }, { c, 't' }, { c, 'u' }, { c, 'v' }
static const char xid_pairs[1024][2] = {
    XID_ROW('0'), XID_ROW('1'), XID_ROW('2'), XID_ROW('3'), XID_ROW('4'), XID_ROW('5'), XID_ROW('6'), XID_ROW('7'),
    XID_ROW('8'), XID_ROW('9'), XID_ROW('a'), XID_ROW('b'), XID_ROW('c'), XID_ROW('d'), XID_ROW('e'), XID_ROW('f'),
    XID_ROW('g'), XID_ROW('h'), XID_ROW('i'), XID_ROW('j'), XID_ROW('k'), XID_ROW('l'), XID_ROW('m'), XID_ROW('n'),
    XID_ROW('o'), XID_ROW('p'), XID_ROW('q'), XID_ROW('r'), XID_ROW('s'), XID_ROW('t'), XID_ROW('u'), XID_ROW('v')
};

/* Ten symbols of a 50-bit value, most significant first: five pairs, each
 * from its own shift of v (no step waits for another), written out: as a
 * loop, GCC at -O2 keeps it one, its shift a count in a register. */
static void encode50(uint64_t v, char out[10])
{
    memcpy(out, xid_pairs[v >> 40 & 1023], 2);
    memcpy(out + 2, xid_pairs[v >> 30 & 1023], 2);
    memcpy(out + 4, xid_pairs[v >> 20 & 1023], 2);
    memcpy(out + 6, xid_pairs[v >> 10 & 1023], 2);
    memcpy(out + 8, xid_pairs[v & 1023], 2);
}

void mintid_xid_encode(const uint8_t id[12], char out[20])
{
    /* The 96 bits and 4 zero bits after them are 100: two halves of 50
     * bits, ten symbols each (bits 0..49, then 50..95 and the padding),
     * from reads of bytes 0..7 and 8..11, the pieces the generators store
     * (seconds_counter.c). */
    uint64_t high = mintid_load_be64(id);
    uint64_t first = high >> 14;
    uint64_t second = ((high & ((UINT64_C(1) << 14) - 1)) << 32 | mintid_load_be32(id + 8)) << 4;

    encode50(first, out);
    encode50(second, out + 10);
}

static int xid_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'v')
        return c - 'a' + 10;
    return -1;
}

int mintid_xid_decode(const char *text, size_t len, uint8_t out[12], char *err)
{
    uint8_t id[MINTID_XID_BYTES];
    uint32_t acc = 0;
    unsigned bits = 0;
    size_t i, o = 0;
    char desc[8];
    int last;

    if (len != MINTID_XID_TEXT_LEN)
        return mintid_fail(err, MINTID_EPARSE, "invalid XID: length %zu, want 20", len);
    for (i = 0; i < MINTID_XID_TEXT_LEN; i++)
        if (xid_value((unsigned char)text[i]) < 0)
            return mintid_fail(err, MINTID_EPARSE, "invalid XID: bad character %s at %zu",
                               mintid_describe_byte((unsigned char)text[i], desc), i + 1);
    /* rs/xid refuses a text that another one re-encodes: the last symbol's
     * four padding bits must be zero. */
    last = xid_value((unsigned char)text[MINTID_XID_TEXT_LEN - 1]);
    if ((last & 15) != 0)
        return mintid_fail(err, MINTID_EPARSE, "invalid XID: last character %s sets padding bits (want 0 or g)",
                           mintid_describe_byte((unsigned char)text[MINTID_XID_TEXT_LEN - 1], desc));
    for (i = 0; i < MINTID_XID_TEXT_LEN - 1; i++) {
        acc = acc << 5 | (uint32_t)xid_value((unsigned char)text[i]);
        bits += 5;
        if (bits >= 8) {
            bits -= 8;
            id[o++] = (uint8_t)(acc >> bits);
        }
    }
    id[o] = (uint8_t)(acc << 1 | (uint32_t)(last >> 4)); /* 7 bits left, then the 20th's top bit */
    memcpy(out, id, sizeof id);
    return MINTID_OK;
}

/* CRC-32 of ISO-HDLC (IEEE 802.3; Go's crc32.ChecksumIEEE), bit by bit: it
 * runs once per process, over a short file. */
uint32_t mintid_crc32_ieee(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xFFFFFFFFu;
    size_t i;
    int k;

    for (i = 0; i < n; i++) {
        crc ^= p[i];
        for (k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

/* XID_MACHINE_ID as rs/xid reads it: a decimal number 0..16777215 (rs/xid
 * panics on anything else; a library leaves the host running and goes on
 * to the platform's id instead). */
static int machine_from_env(uint8_t machine[3])
{
    const char *s = getenv("XID_MACHINE_ID");
    uint32_t v = 0;
    size_t i;

    if (s == NULL || *s == '\0')
        return 0;
    if (*s == '+')
        s++;
    for (i = 0; s[i] != '\0'; i++) {
        if (s[i] < '0' || s[i] > '9' || i >= 8)
            return 0;
        v = v * 10 + (uint32_t)(s[i] - '0');
    }
    if (i == 0 || v > MAX_MACHINE_ID)
        return 0;
    machine[0] = (uint8_t)(v >> 16);
    machine[1] = (uint8_t)(v >> 8);
    machine[2] = (uint8_t)v;
    return 1;
}

static uint8_t process_machine[3];
static int process_machine_rc = MINTID_OK;
static mintid_once machine_once = MINTID_ONCE_INIT;

static void machine_setup(void)
{
    char host[MINTID_OS_HOST_ID_MAX];
    uint8_t digest[32];
    size_t len = 0;

    if (machine_from_env(process_machine))
        return;
    if (mintid_os_platform_machine_id(host, sizeof host, &len) != MINTID_OK || len == 0)
        if (mintid_os_hostname(host, sizeof host, &len) != MINTID_OK)
            len = 0;
    if (len > 0) {
        mintid_sha256((const uint8_t *)host, len, digest);
        memcpy(process_machine, digest, sizeof process_machine);
        return;
    }
    process_machine_rc = mintid_random_bytes(process_machine, sizeof process_machine, NULL);
}

int mintid_xid_process_machine(uint8_t machine[3], char *err)
{
    mintid_run_once(&machine_once, machine_setup);
    if (process_machine_rc != MINTID_OK)
        return mintid_fail(err, MINTID_ERANDOM, "XID machine id: no machine id, host name or random bytes");
    memcpy(machine, process_machine, sizeof process_machine);
    return MINTID_OK;
}

uint16_t mintid_xid_process_pid(void)
{
    uint8_t cpuset[MINTID_OS_CPUSET_MAX];
    size_t len = 0;
    uint32_t pid = mintid_os_process_id();

    if (mintid_os_cpuset(cpuset, sizeof cpuset, &len) == MINTID_OK && len > 1)
        pid ^= mintid_crc32_ieee(cpuset, len);
    return (uint16_t)(pid & 0xFFFF);
}

int mintid_xid_gen_init(mintid_xid_gen *pub, const uint8_t *machine, size_t machine_len, int64_t pid, char *err)
{
    mintid_xid_state *g = mintid_xid_state_of(pub);
    uint8_t m[3];
    int rc;

    if (machine != NULL && machine_len != sizeof m)
        return mintid_fail(err, MINTID_EARG, "machine must be 3 bytes, got %zu", machine_len);
    if (pid < -1 || pid > 0xFFFF)
        return mintid_fail(err, MINTID_EARG, "pid must be 0..65535, got %" PRId64, pid);
    if (machine != NULL) {
        memcpy(m, machine, sizeof m);
    } else {
        rc = mintid_xid_process_machine(m, err);
        if (rc != MINTID_OK)
            return rc;
    }
    mintid_seconds_counter_init(&g->sc);
    memcpy(g->machine, m, sizeof m);
    g->pid_given = pid >= 0;
    g->shares = machine == NULL && pid < 0;
    g->pid = g->pid_given ? (uint16_t)pid : 0;
    return MINTID_OK;
}

int mintid_xid_gen_next(mintid_xid_state *g, int64_t now_ms, mintid_random_fn rnd, void *ctx, uint8_t out[12],
                        char *err)
{
    return mintid_xid_gen_next_s(g, mintid_seconds_of_ms(now_ms), rnd, ctx, NULL, out, err);
}

int mintid_xid_gen_next_s(mintid_xid_state *g, int64_t seconds, mintid_random_fn rnd, void *ctx,
                          mintid_xid_counter *held, uint8_t out[12], char *err)
{
    uint8_t start[START_BYTES];
    uint32_t generation;
    int rc;

    if (g->shares)
        return mintid_xid_next_shared(g, seconds, rnd, ctx, held, out, err);
    generation = mintid_os_fork_generation();
    rc = mintid_seconds_check("XID", seconds, err);
    if (rc != MINTID_OK)
        return rc;
    /* In a new process (a forked child) the counter starts afresh, and a
     * pid not given is the child's own. */
    if (mintid_seconds_counter_fresh(&g->sc, generation)) {
        rc = mintid_draw_random(rnd, ctx, start, sizeof start, "XID", err);
        if (rc != MINTID_OK)
            return rc;
        if (!g->pid_given)
            g->pid = mintid_xid_process_pid();
    }
    return mintid_seconds_counter_step(&g->sc, "XID", seconds, generation, start, mintid_xid_identity(g), out, err);
}
