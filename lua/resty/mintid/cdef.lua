-- resty.mintid.cdef: the FFI declarations of mintid's ABI.
-- Generated from src/mintid.h by tools/gen_cdef.py (make cdef): do not edit.
return {
    cdef = [[
typedef struct {
    __attribute__((aligned(8))) uint8_t opaque[64];
} mintid_ulid_gen;
typedef struct {
    __attribute__((aligned(8))) uint8_t opaque[64];
} mintid_uuid7_gen;
typedef struct {
    __attribute__((aligned(8))) uint8_t opaque[64];
} mintid_uuid_time_gen;
typedef struct {
    __attribute__((aligned(8))) uint8_t opaque[64];
} mintid_ksuid_gen;
typedef struct {
    __attribute__((aligned(8))) uint8_t opaque[64];
} mintid_objectid_gen;
typedef struct {
    __attribute__((aligned(8))) uint8_t opaque[64];
} mintid_xid_gen;
typedef struct {
    __attribute__((aligned(8))) uint8_t opaque[512];
} mintid_relative_gen;
typedef struct {
    __attribute__((aligned(8))) uint8_t opaque[32];
} mintid_snowflake_layout;
typedef struct {
    __attribute__((aligned(8))) uint8_t opaque[64];
} mintid_snowflake_gen;
typedef struct {
    __attribute__((aligned(8))) uint8_t opaque[128];
} mintid_fence;
typedef struct {
    __attribute__((aligned(8))) uint8_t opaque[384];
} mintid_nanoid_spec;
typedef struct {
    __attribute__((aligned(8))) uint8_t opaque[1024];
} mintid_short_uuid_alphabet;
typedef struct {
    __attribute__((aligned(8))) uint8_t opaque[320];
} mintid_cuid2_gen;
typedef struct {
    __attribute__((aligned(8))) uint8_t opaque[2048];
} mintid_sqids;
const char *mintid_strerror(int code);
void mintid_ulid_encode(const uint8_t id[16], char out[26]);
int mintid_ulid_decode(const char *text, size_t len, uint8_t out[16], char *err);
void mintid_ulid_gen_init(mintid_ulid_gen *g);
void mintid_uuid_encode(const uint8_t id[16], char out[36]);
int mintid_uuid_decode(const char *text, size_t len, uint8_t out[16], char *err);
int mintid_uuid_decode_lenient(const char *text, size_t len, uint8_t out[16], char *err);
void mintid_uuid7_gen_init(mintid_uuid7_gen *g);
int mintid_uuid_time_gen_init(mintid_uuid_time_gen *g, unsigned version, const uint8_t *node,
    size_t node_len, int64_t clock_seq, char *err);
void mintid_ksuid_gen_init(mintid_ksuid_gen *g);
void mintid_objectid_encode(const uint8_t id[12], char out[24]);
int mintid_objectid_decode(const char *text, size_t len, uint8_t out[12], char *err);
void mintid_objectid_gen_init(mintid_objectid_gen *g);
void mintid_xid_encode(const uint8_t id[12], char out[20]);
int mintid_xid_decode(const char *text, size_t len, uint8_t out[12], char *err);
int mintid_xid_gen_init(mintid_xid_gen *g, const uint8_t *machine, size_t machine_len, int64_t pid,
    char *err);
void mintid_relative_encode(const uint8_t id[16], char out[28]);
void mintid_relative_prefix(uint32_t tag, char out[7]);
int mintid_relative_decode(const char *text, size_t len, uint8_t out[16], char *err);
int mintid_relative_gen_init(mintid_relative_gen *g, const uint8_t *secret, size_t secret_len,
    const uint8_t *salt, size_t salt_len, char *err);
void mintid_relative_gen_wipe(mintid_relative_gen *g);
uint32_t mintid_relative_gen_tag(const mintid_relative_gen *g, const uint8_t *key, size_t key_len);
void mintid_snowflake_layout_default(mintid_snowflake_layout *l);
int mintid_snowflake_layout_init(mintid_snowflake_layout *l, int64_t time_bits,
    int64_t time_unit_ms, int64_t machine_bits, int64_t seq_bits, int64_t epoch, int order,
    char *err);
int mintid_snowflake_layout_preset(mintid_snowflake_layout *l, const char *name, size_t len,
    char *err);
int mintid_snowflake_order_of(const char *name, size_t len);
const char *mintid_snowflake_order_name(int order);
int mintid_snowflake_layout_set_epoch(mintid_snowflake_layout *l, int64_t epoch, char *err);
void mintid_snowflake_layout_fields(const mintid_snowflake_layout *l, int64_t fields[6]);
const char *mintid_snowflake_layout_name(const mintid_snowflake_layout *l);
int mintid_snowflake_layout_equal(const mintid_snowflake_layout *a,
    const mintid_snowflake_layout *b);
size_t mintid_snowflake_layout_fingerprint(const mintid_snowflake_layout *l, char out[64]);
int mintid_snowflake_layout_split(const mintid_snowflake_layout *l, uint64_t id,
    int64_t max_timestamp, int64_t *timestamp, uint64_t *machine_id, uint64_t *sequence, char *err);
int mintid_snowflake_gen_init(mintid_snowflake_gen *g, int64_t machine_id, int64_t epoch,
    char *err);
int mintid_snowflake_gen_init_layout(mintid_snowflake_gen *g, const mintid_snowflake_layout *l,
    int64_t machine_id, char *err);
void mintid_fence_init(mintid_fence *f);
int mintid_fence_bind_layout(mintid_fence *f, const mintid_snowflake_layout *l, char *err);
void mintid_fence_layout(const mintid_fence *f, mintid_snowflake_layout *l);
int mintid_fence_hold(mintid_fence *f, int64_t machine_id, int64_t valid_for_ms, int64_t floor_ms,
    char *err);
int mintid_fence_hold_until(mintid_fence *f, int64_t machine_id, int64_t valid_for_ms,
    int64_t floor_ms, int64_t last_ms, char *err);
int mintid_fence_drop(mintid_fence *f, int reason, char *err);
int mintid_fence_state_now(mintid_fence *f, int64_t *ms_left);
const char *mintid_fence_state_name(int state);
int64_t mintid_fence_clock_ms(void);
int64_t mintid_fence_machine_id(mintid_fence *f);
int mintid_snowflake_gen_init_fenced(mintid_snowflake_gen *g, mintid_fence *f, int64_t epoch,
    char *err);
int mintid_snowflake_gen_init_fenced_layout(mintid_snowflake_gen *g, mintid_fence *f,
    const mintid_snowflake_layout *l, char *err);
int mintid_snowflake_check_epoch(int64_t epoch, char *err);
void mintid_snowflake_split(uint64_t id, int64_t epoch, int64_t *timestamp, uint32_t *machine_id,
    uint32_t *sequence);
int mintid_snowflake_timestamp(uint64_t id, int64_t epoch, int64_t max_timestamp,
    int64_t *timestamp, char *err);
int mintid_snowflake_parse_decimal(const char *text, size_t len, uint64_t *id, char *err);
int mintid_nanoid_spec_init(mintid_nanoid_spec *s, const uint8_t *alphabet, size_t alen,
    int64_t size, char *err);
size_t mintid_nanoid_spec_size(const mintid_nanoid_spec *s);
int mintid_nanoid_valid(const mintid_nanoid_spec *s, const char *text, size_t len);
int mintid_short_uuid_alphabet_init(mintid_short_uuid_alphabet *a, const uint8_t *symbols,
    size_t n, char *err);
size_t mintid_short_uuid_length(const mintid_short_uuid_alphabet *a);
void mintid_short_uuid_encode(const mintid_short_uuid_alphabet *a, const uint8_t id[16], char *out);
int mintid_short_uuid_decode(const mintid_short_uuid_alphabet *a, const char *text, size_t len,
    uint8_t out[16], char *err);
int mintid_short_uuid_text(const mintid_short_uuid_alphabet *a, const char *uuid, size_t len,
    char *out, char *err);
int mintid_cuid2_gen_init(mintid_cuid2_gen *g, int64_t length, const uint8_t *fingerprint,
    size_t fingerprint_len, char *err);
int mintid_cuid2_gen_next_text(mintid_cuid2_gen *g, char out[32], char *err);
int mintid_cuid2_text(int64_t length, char out[32], char *err);
int mintid_cuid2_valid(const char *text, size_t len, int64_t min_len, int64_t max_len);
size_t mintid_sqids_size(const uint8_t *alphabet, size_t alen, const uint8_t *const *words,
    const size_t *word_lens, size_t n_words);
int mintid_sqids_init(mintid_sqids *s, size_t size, const uint8_t *alphabet, size_t alen,
    int64_t min_length, const uint8_t *const *words, const size_t *word_lens, size_t n_words,
    char *err);
size_t mintid_sqids_encoded_len(const mintid_sqids *s, const uint64_t *numbers, size_t n);
int mintid_sqids_encode(const mintid_sqids *s, const uint64_t *numbers, size_t n, char *out,
    char *err);
int mintid_sqids_decode(const mintid_sqids *s, const char *text, size_t len, uint64_t max,
    uint64_t *out, char *err);
int mintid_iso_text(int64_t ms, char out[24], char *err);
const char *mintid_kind_of(const char *text, size_t len, char *err);
int mintid_ulid_text(char out[26], char *err);
int mintid_uuid7_text(char out[36], char *err);
int mintid_uuid4_text(char out[36], char *err);
int mintid_uuid1_text(char out[36], char *err);
int mintid_uuid6_text(char out[36], char *err);
int mintid_ksuid_text(char out[27], char *err);
int mintid_objectid_text(char out[24], char *err);
int mintid_xid_text(char out[20], char *err);
int mintid_typeid_text(const char *prefix, size_t prefix_len, char out[90], char *err);
int mintid_uuid3_text(const char *ns, size_t ns_len, const uint8_t *name, size_t name_len,
    char out[36], char *err);
int mintid_uuid5_text(const char *ns, size_t ns_len, const uint8_t *name, size_t name_len,
    char out[36], char *err);
int mintid_uuid8_sha256_text(const char *ns, size_t ns_len, const uint8_t *name, size_t name_len,
    char out[36], char *err);
int mintid_nanoid_text(const mintid_nanoid_spec *s, char *out, char *err);
int mintid_ulid_gen_next_text(mintid_ulid_gen *g, char out[26], char *err);
int mintid_uuid7_gen_next_text(mintid_uuid7_gen *g, char out[36], char *err);
int mintid_relative_gen_next_text(mintid_relative_gen *g, const uint8_t *key, size_t key_len,
    char out[28], char *err);
int mintid_snowflake_gen_next_text(mintid_snowflake_gen *g, char out[20], char *err);
int mintid_uuid_time_gen_next_text(mintid_uuid_time_gen *g, char out[36], char *err);
int mintid_ksuid_gen_next_text(mintid_ksuid_gen *g, char out[27], char *err);
int mintid_objectid_gen_next_text(mintid_objectid_gen *g, char out[24], char *err);
int mintid_xid_gen_next_text(mintid_xid_gen *g, char out[20], char *err);
int mintid_typeid_gen_next_text(mintid_uuid7_gen *g, const char *prefix, size_t prefix_len,
    char out[90], char *err);
int mintid_ulid_to_uuid_text(const char *text, size_t len, char out[36], char *err);
int mintid_uuid_to_ulid_text(const char *text, size_t len, char out[26], char *err);
int mintid_trace_id_text(char out[32], char *err);
int mintid_span_id_text(char out[16], char *err);
int mintid_traceparent_text(const char *trace_id, size_t trace_id_len, const char *parent_id,
    size_t parent_id_len, int64_t flags, char out[55], char *err);
int mintid_traceparent_parse(const char *header, size_t len, char trace_id[32], char parent_id[16],
    uint8_t *flags, char *err);
size_t mintid_abi_sizeof(const char *type_name);
]],
    -- every struct declared above, checked against mintid_abi_sizeof
    structs = {
        "mintid_ulid_gen",
        "mintid_uuid7_gen",
        "mintid_uuid_time_gen",
        "mintid_ksuid_gen",
        "mintid_objectid_gen",
        "mintid_xid_gen",
        "mintid_relative_gen",
        "mintid_snowflake_layout",
        "mintid_snowflake_gen",
        "mintid_fence",
        "mintid_nanoid_spec",
        "mintid_short_uuid_alphabet",
        "mintid_cuid2_gen",
        "mintid_sqids",
    },
    functions = {
        "mintid_strerror",
        "mintid_ulid_encode",
        "mintid_ulid_decode",
        "mintid_ulid_gen_init",
        "mintid_uuid_encode",
        "mintid_uuid_decode",
        "mintid_uuid_decode_lenient",
        "mintid_uuid7_gen_init",
        "mintid_uuid_time_gen_init",
        "mintid_ksuid_gen_init",
        "mintid_objectid_encode",
        "mintid_objectid_decode",
        "mintid_objectid_gen_init",
        "mintid_xid_encode",
        "mintid_xid_decode",
        "mintid_xid_gen_init",
        "mintid_relative_encode",
        "mintid_relative_prefix",
        "mintid_relative_decode",
        "mintid_relative_gen_init",
        "mintid_relative_gen_wipe",
        "mintid_relative_gen_tag",
        "mintid_snowflake_layout_default",
        "mintid_snowflake_layout_init",
        "mintid_snowflake_layout_preset",
        "mintid_snowflake_order_of",
        "mintid_snowflake_order_name",
        "mintid_snowflake_layout_set_epoch",
        "mintid_snowflake_layout_fields",
        "mintid_snowflake_layout_name",
        "mintid_snowflake_layout_equal",
        "mintid_snowflake_layout_fingerprint",
        "mintid_snowflake_layout_split",
        "mintid_snowflake_gen_init",
        "mintid_snowflake_gen_init_layout",
        "mintid_fence_init",
        "mintid_fence_bind_layout",
        "mintid_fence_layout",
        "mintid_fence_hold",
        "mintid_fence_hold_until",
        "mintid_fence_drop",
        "mintid_fence_state_now",
        "mintid_fence_state_name",
        "mintid_fence_clock_ms",
        "mintid_fence_machine_id",
        "mintid_snowflake_gen_init_fenced",
        "mintid_snowflake_gen_init_fenced_layout",
        "mintid_snowflake_check_epoch",
        "mintid_snowflake_split",
        "mintid_snowflake_timestamp",
        "mintid_snowflake_parse_decimal",
        "mintid_nanoid_spec_init",
        "mintid_nanoid_spec_size",
        "mintid_nanoid_valid",
        "mintid_short_uuid_alphabet_init",
        "mintid_short_uuid_length",
        "mintid_short_uuid_encode",
        "mintid_short_uuid_decode",
        "mintid_short_uuid_text",
        "mintid_cuid2_gen_init",
        "mintid_cuid2_gen_next_text",
        "mintid_cuid2_text",
        "mintid_cuid2_valid",
        "mintid_sqids_size",
        "mintid_sqids_init",
        "mintid_sqids_encoded_len",
        "mintid_sqids_encode",
        "mintid_sqids_decode",
        "mintid_iso_text",
        "mintid_kind_of",
        "mintid_ulid_text",
        "mintid_uuid7_text",
        "mintid_uuid4_text",
        "mintid_uuid1_text",
        "mintid_uuid6_text",
        "mintid_ksuid_text",
        "mintid_objectid_text",
        "mintid_xid_text",
        "mintid_typeid_text",
        "mintid_uuid3_text",
        "mintid_uuid5_text",
        "mintid_uuid8_sha256_text",
        "mintid_nanoid_text",
        "mintid_ulid_gen_next_text",
        "mintid_uuid7_gen_next_text",
        "mintid_relative_gen_next_text",
        "mintid_snowflake_gen_next_text",
        "mintid_uuid_time_gen_next_text",
        "mintid_ksuid_gen_next_text",
        "mintid_objectid_gen_next_text",
        "mintid_xid_gen_next_text",
        "mintid_typeid_gen_next_text",
        "mintid_ulid_to_uuid_text",
        "mintid_uuid_to_ulid_text",
        "mintid_trace_id_text",
        "mintid_span_id_text",
        "mintid_traceparent_text",
        "mintid_traceparent_parse",
        "mintid_abi_sizeof",
    },
    constants = {
        MINTID_CUID2_GEN_SIZE = 320,
        MINTID_CUID2_MAX_LEN = 32,
        MINTID_EAGAIN = -6,
        MINTID_EARG = -7,
        MINTID_ECLOCK = -5,
        MINTID_EFORK = -9,
        MINTID_ELEASE = -10,
        MINTID_ENOMEM = -8,
        MINTID_EOVERFLOW = -3,
        MINTID_EPARSE = -1,
        MINTID_ERANDOM = -4,
        MINTID_ERANGE = -2,
        MINTID_ERRMSG_SIZE = 128,
        MINTID_FENCE_SIZE = 128,
        MINTID_ISO_TEXT_LEN = 24,
        MINTID_KIND_ERRMSG_SIZE = 256,
        MINTID_KSUID_GEN_SIZE = 64,
        MINTID_KSUID_TEXT_LEN = 27,
        MINTID_MAX_MS = 281474976710655,
        MINTID_NANOID_DEFAULT_SIZE = 21,
        MINTID_NANOID_MAX_SIZE = 1048576,
        MINTID_NANOID_SPEC_SIZE = 384,
        MINTID_OBJECTID_GEN_SIZE = 64,
        MINTID_OBJECTID_TEXT_LEN = 24,
        MINTID_OK = 0,
        MINTID_RELATIVE_GEN_SIZE = 512,
        MINTID_RELATIVE_PREFIX_LEN = 7,
        MINTID_RELATIVE_TEXT_LEN = 28,
        MINTID_SHORT_UUID_ALPHABET_SIZE = 1024,
        MINTID_SHORT_UUID_MAX_LEN = 128,
        MINTID_SNOWFLAKE_DECIMAL_MAX = 20,
        MINTID_SNOWFLAKE_FINGERPRINT_MAX = 64,
        MINTID_SNOWFLAKE_GEN_SIZE = 64,
        MINTID_SNOWFLAKE_LAYOUT_SIZE = 32,
        MINTID_SPAN_ID_TEXT_LEN = 16,
        MINTID_SQIDS_SIZE = 2048,
        MINTID_TRACEPARENT_LEN = 55,
        MINTID_TRACE_ID_TEXT_LEN = 32,
        MINTID_TYPEID_SUFFIX_LEN = 26,
        MINTID_ULID_GEN_SIZE = 64,
        MINTID_ULID_TEXT_LEN = 26,
        MINTID_UUID7_GEN_SIZE = 64,
        MINTID_UUID_TEXT_LEN = 36,
        MINTID_UUID_TIME_GEN_SIZE = 64,
        MINTID_XID_GEN_SIZE = 64,
        MINTID_XID_TEXT_LEN = 20,
    },
}
