package corpus

// msgTemplate is one message shape. Placeholders in braces are filled when a
// record is made: variable ones ({ip}, {port}, {path}, ...) become a regex
// class in messagePattern, literal ones ({noun}, {op}, {fn}, {Type}, {cond},
// {device}) are fixed text of the repo and are quoted. {=kind} repeats the
// first value of kind, which is what lets a pattern use a backreference.
type msgTemplate struct {
	fam   string // backgroundTag family; must name an entry of families
	langs string // language codes it fits, "" for all
	types string // errorTypes it may have, most likely first
	sev   string // usual severity
	msg   string
}

var templates = []msgTemplate{
	// connection-refused
	{"connection-refused", "go", "exception error_code", "error", "dial tcp {ip}:{port}: connect: connection refused"},
	{"connection-refused", "py", "exception", "error", "Failed to establish a new connection: [Errno {errno}] Connection refused"},
	{"connection-refused", "", "exception console", "error", "could not connect to {noun} at {host}:{port}: connection refused"},
	{"connection-refused", "js ts", "error_code exception", "error", "connect ECONNREFUSED {ip}:{port}"},
	{"connection-refused", "java", "exception", "error", "Connection refused: {host}/{ip}:{port}"},
	{"connection-refused", "", "exception", "critical", "unable to reach {noun} service at {url} after {n} attempts"},
	// timeout
	{"timeout", "py", "exception", "error", "HTTPConnectionPool(host='{host}', port={port}): Read timed out. (read timeout={secs})"},
	{"timeout", "go", "exception error_code", "error", "context deadline exceeded while waiting for {noun} {qname}"},
	{"timeout", "js ts", "exception error_code", "error", "timeout of {ms}ms exceeded"},
	{"timeout", "", "exception console", "warning", "{op} {noun} timed out after {dur}"},
	{"timeout", "rs", "exception", "error", "deadline has elapsed while {op} {noun}"},
	{"timeout", "java", "exception", "error", "Timed out waiting for {noun} after {ms} ms"},
	// resource-limit-exceeded
	{"resource-limit-exceeded", "py", "exception", "error", "Max retries exceeded with url: {urlpath}"},
	{"resource-limit-exceeded", "", "exception", "error", "{noun} limit of {n} exceeded"},
	{"resource-limit-exceeded", "", "exception error_code", "critical", "too many open files: cannot open {path}"},
	{"resource-limit-exceeded", "", "exception", "error", "message larger than max ({n} vs. {n})"},
	{"resource-limit-exceeded", "", "console exception", "warning", "{noun} pool exhausted: {n} of {n} in use"},
	// permission-denied
	{"permission-denied", "go rs cpp", "exception", "error", "open {path}: permission denied"},
	{"permission-denied", "py", "exception", "error", "[Errno 13] Permission denied: '{path}'"},
	{"permission-denied", "js ts", "error_code exception", "error", "EACCES: permission denied, open '{path}'"},
	{"permission-denied", "java", "exception", "error", "{path} (Permission denied)"},
	// file-not-found
	{"file-not-found", "go", "exception", "error", "open {path}: no such file or directory"},
	{"file-not-found", "py", "exception", "error", "[Errno 2] No such file or directory: '{path}'"},
	{"file-not-found", "js ts", "error_code exception", "error", "ENOENT: no such file or directory, stat '{path}'"},
	{"file-not-found", "", "exception", "error", "could not find {noun} file at {path}"},
	{"file-not-found", "", "console", "warning", "{noun} file {path} not found, using defaults"},
	// invalid-argument
	{"invalid-argument", "", "validation exception", "error", "invalid value for {name}: expected {type}, got {type}"},
	{"invalid-argument", "", "validation exception", "error", "{name} must be a positive integer, got {int}"},
	{"invalid-argument", "", "validation", "error", "{name} must be between {n} and {n}, got {int}"},
	{"invalid-argument", "", "validation console", "error", "unknown option '--{word}'"},
	{"invalid-argument", "rs", "validation exception", "error", "unknown variant `{word}`, expected one of `{word}`, `{word}`"},
	{"invalid-argument", "", "validation", "warning", "ignoring unknown {noun} option {qname}"},
	// type-mismatch
	{"type-mismatch", "", "exception validation", "error", "expected {type} for {noun} {name}, found {type}"},
	{"type-mismatch", "py", "exception", "error", "unsupported operand type(s) for +: '{type}' and '{type}'"},
	{"type-mismatch", "ts", "validation exception", "error", "Argument of type '{type}' is not assignable to parameter of type '{type}'."},
	{"type-mismatch", "go", "exception panic", "error", "interface conversion: interface {} is {type}, not {type}"},
	{"type-mismatch", "java", "exception", "error", "class {jtype} cannot be cast to class {jtype}"},
	// null-reference
	{"null-reference", "js ts", "exception", "error", "Cannot read properties of undefined (reading '{name}')"},
	{"null-reference", "py", "exception", "error", "'NoneType' object has no attribute '{name}'"},
	{"null-reference", "rs", "panic", "critical", "called `Option::unwrap()` on a `None` value"},
	{"null-reference", "go", "panic", "critical", "runtime error: invalid memory address or nil pointer dereference"},
	{"null-reference", "java", "exception", "error", "Cannot invoke \"{jtype}.{name}()\" because \"{name}\" is null"},
	{"null-reference", "cpp", "exception", "critical", "{noun} handle is null in {fn}"},
	// index-out-of-range
	{"index-out-of-range", "go", "panic", "critical", "runtime error: index out of range [{n}] with length {n}"},
	{"index-out-of-range", "py", "exception", "error", "index {n} is out of bounds for axis {n} with size {n}"},
	{"index-out-of-range", "java", "exception", "error", "Index {n} out of bounds for length {n}"},
	{"index-out-of-range", "rs", "panic", "critical", "index out of bounds: the len is {n} but the index is {n}"},
	{"index-out-of-range", "cpp", "exception", "error", "vector::_M_range_check: __n (which is {n}) >= this->size() (which is {n})"},
	{"index-out-of-range", "", "exception", "error", "{noun} offset {n} out of range"},
	// key-not-found
	{"key-not-found", "py", "exception", "error", "KeyError: '{name}'"},
	{"key-not-found", "", "exception error_code", "error", "{noun} {qname} not found"},
	{"key-not-found", "", "exception", "error", "no such key: {name}"},
	{"key-not-found", "java", "exception", "error", "No bean named '{name}' available"},
	// parse-error
	{"parse-error", "js ts", "exception", "error", "Unexpected token {char} in JSON at position {n}"},
	{"parse-error", "go", "exception", "error", "invalid character '{char}' looking for beginning of value"},
	{"parse-error", "py", "exception", "error", "Expecting value: line {n} column {n} (char {n})"},
	{"parse-error", "rs", "exception", "error", "expected value at line {n} column {n}"},
	{"parse-error", "", "exception validation", "error", "failed to parse {noun} at line {n}: unexpected {word}"},
	// encoding-error
	{"encoding-error", "py", "exception", "error", "'utf-8' codec can't decode byte 0x{hex2} in position {n}: invalid start byte"},
	{"encoding-error", "rs", "exception", "error", "stream did not contain valid UTF-8"},
	{"encoding-error", "", "exception validation", "warning", "invalid UTF-8 sequence in {noun} {name} at byte {n}"},
	// authentication-failed
	{"authentication-failed", "", "http exception", "error", "401 Unauthorized: invalid credentials for {noun} {qname}"},
	{"authentication-failed", "", "exception error_code", "error", "authentication failed for user {qname}"},
	{"authentication-failed", "go", "exception", "error", "token is expired by {dur}"},
	{"authentication-failed", "", "http", "error", "invalid API key provided: {redacted}"},
	// authorization-denied
	{"authorization-denied", "", "http exception", "error", "403 Forbidden: {user} is not allowed to {verb} {noun} {qname}"},
	{"authorization-denied", "", "exception error_code", "error", "permission {qname} denied on {noun} {qname}"},
	// rate-limited
	{"rate-limited", "", "http exception", "warning", "429 Too Many Requests: rate limit exceeded, retry after {n} seconds"},
	{"rate-limited", "", "http", "warning", "API rate limit exceeded for {ip}"},
	// deprecated-api
	{"deprecated-api", "", "console", "warning", "{fn} is deprecated and will be removed in {version}; use {fn} instead"},
	{"deprecated-api", "py", "console", "info", "The {name} argument is deprecated since {version} and will be removed"},
	// version-mismatch
	{"version-mismatch", "", "exception error_code", "error", "incompatible {noun} version: expected {version}, got {version}"},
	{"version-mismatch", "", "exception", "critical", "protocol version mismatch: client {version} server {version}"},
	// configuration-missing
	{"configuration-missing", "", "validation exception", "error", "missing required configuration key {qname}"},
	{"configuration-missing", "", "validation console", "error", "environment variable {env} is not set"},
	// dependency-missing
	{"dependency-missing", "py", "exception", "error", "No module named '{module}'"},
	{"dependency-missing", "js ts", "exception error_code", "error", "Cannot find module '{module}' from '{path}'"},
	{"dependency-missing", "cpp rs go", "exception", "critical", "error while loading shared libraries: lib{word}.so.{n}: cannot open shared object file"},
	// out-of-memory
	{"out-of-memory", "py", "exception", "critical", "CUDA out of memory. Tried to allocate {size} (GPU {n}; {size} total capacity)"},
	{"out-of-memory", "go", "panic", "critical", "runtime: out of memory: cannot allocate {n}-byte block ({n} in use)"},
	{"out-of-memory", "js ts", "console", "critical", "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory"},
	{"out-of-memory", "cpp", "exception", "critical", "std::bad_alloc while allocating {noun} buffer of {n} bytes"},
	{"out-of-memory", "java", "exception", "critical", "Java heap space while {op} {noun}"},
	// deadlock
	{"deadlock", "go", "panic", "critical", "fatal error: all goroutines are asleep - deadlock!"},
	{"deadlock", "", "exception error_code", "error", "deadlock detected while acquiring lock on {noun} {qname}"},
	// concurrent-modification
	{"concurrent-modification", "py", "exception", "error", "dictionary changed size during iteration"},
	{"concurrent-modification", "go", "panic", "critical", "fatal error: concurrent map writes"},
	{"concurrent-modification", "rs", "panic", "critical", "already borrowed: BorrowMutError"},
	{"concurrent-modification", "", "exception", "error", "{noun} was modified while {op}"},
	// invalid-state
	{"invalid-state", "", "exception", "error", "{noun} is already closed"},
	{"invalid-state", "", "exception", "error", "cannot {verb} {noun} in state {state}"},
	{"invalid-state", "", "exception console", "error", "{noun} has not been initialized; call {fn}() first"},
	// not-implemented
	{"not-implemented", "", "exception", "error", "{fn} is not implemented for {noun} backend {qname}"},
	// unsupported-operation
	{"unsupported-operation", "", "exception validation", "error", "unsupported {noun} type: {name}"},
	{"unsupported-operation", "", "exception", "error", "operation {verb} is not supported on {noun}s"},
	// shape-mismatch
	{"shape-mismatch", "py", "exception validation", "error", "shapes ({n}, {n}) and ({n}, {n}) not aligned: {n} (dim 1) != {n} (dim 0)"},
	{"shape-mismatch", "", "exception validation", "error", "Incompatible shapes for broadcasting: ({n}, {n}) and ({n},)"},
	// integer-overflow
	{"integer-overflow", "rs", "panic", "critical", "attempt to multiply with overflow"},
	{"integer-overflow", "", "exception validation", "error", "value {int} out of range for {type}"},
	// division-by-zero
	{"division-by-zero", "py", "exception", "error", "division by zero"},
	{"division-by-zero", "go rs", "panic", "critical", "runtime error: integer divide by zero"},
	// serialization-error
	{"serialization-error", "py", "exception", "error", "Object of type {Type} is not JSON serializable"},
	{"serialization-error", "", "exception", "error", "failed to serialize {noun}: field {name} has unsupported type {type}"},
	{"serialization-error", "js ts", "exception", "error", "Converting circular structure to JSON"},
	// schema-violation
	{"schema-violation", "", "validation", "error", "{noun} does not match schema: field {qname} is required"},
	{"schema-violation", "", "validation", "warning", "Additional property {name} is not allowed"},
	// dns-resolution-failed
	{"dns-resolution-failed", "js ts", "error_code exception", "error", "getaddrinfo ENOTFOUND {host}"},
	{"dns-resolution-failed", "go", "exception", "error", "dial tcp: lookup {host}: no such host"},
	{"dns-resolution-failed", "py", "exception", "error", "[Errno -3] Temporary failure in name resolution"},
	// tls-handshake-failed
	{"tls-handshake-failed", "", "exception", "error", "tls: handshake failure while connecting to {host}"},
	{"tls-handshake-failed", "py", "exception", "error", "[SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:{n})"},
	// certificate-invalid
	{"certificate-invalid", "go", "exception", "error", "x509: certificate signed by unknown authority"},
	{"certificate-invalid", "py", "exception", "error", "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:{n})"},
	{"certificate-invalid", "", "exception", "error", "x509: certificate has expired or is not yet valid: current time {time} is after {time}"},
	// http-client-error
	{"http-client-error", "js ts", "http exception", "error", "Request failed with status code {status4}"},
	{"http-client-error", "py", "http exception", "error", "{status4} Client Error: {reason} for url: {url}"},
	{"http-client-error", "", "http", "error", "unexpected status {status4} from {method} {urlpath}"},
	// http-server-error
	{"http-server-error", "py", "http exception", "error", "{status5} Server Error: {reason} for url: {url}"},
	{"http-server-error", "", "http", "error", "upstream returned {status5} for {method} {urlpath}"},
	{"http-server-error", "", "http console", "critical", "{noun} handler failed with {status5}: {reason}"},
	// not-found
	{"not-found", "", "http exception", "error", "404 Not Found: {noun} {qname} does not exist"},
	{"not-found", "", "http", "info", "no route matches {method} {urlpath}"},
	// conflict
	{"conflict", "", "http exception", "error", "409 Conflict: {noun} {qname} already exists"},
	// precondition-failed
	{"precondition-failed", "", "exception error_code", "error", "precondition failed: {noun} revision {n} does not match {n}"},
	// checksum-mismatch
	{"checksum-mismatch", "", "exception", "critical", "checksum mismatch for {path}: expected {hex}, got {hex}"},
	// corrupted-data
	{"corrupted-data", "", "exception", "critical", "corrupt {noun}: bad magic number 0x{hex8}"},
	{"corrupted-data", "", "exception", "error", "unexpected EOF while reading {noun} header"},
	// disk-full
	{"disk-full", "go", "exception", "critical", "write {path}: no space left on device"},
	{"disk-full", "", "exception error_code", "critical", "[Errno 28] No space left on device: '{path}'"},
	// quota-exceeded
	{"quota-exceeded", "", "exception error_code http", "error", "quota exceeded for {noun}: {n} of {n} used"},
	// assertion-failed
	{"assertion-failed", "cpp", "panic console", "critical", "Check failed: {cond}"},
	{"assertion-failed", "rs", "panic", "critical", "assertion failed: {cond}"},
	{"assertion-failed", "", "exception", "critical", "internal error: {cond} does not hold in {fn}"},
	// context-canceled
	{"context-canceled", "go", "exception", "info", "context canceled"},
	{"context-canceled", "", "exception console", "info", "operation was cancelled while {op} {noun}"},
	// stream-closed
	{"stream-closed", "js ts", "exception error_code", "error", "write after end"},
	{"stream-closed", "", "exception", "error", "stream closed before {noun} was fully read ({n} of {n} bytes)"},
	// broken-pipe
	{"broken-pipe", "go", "exception", "warning", "write tcp {ip}:{port}->{ip}:{port}: write: broken pipe"},
	{"broken-pipe", "py", "exception", "warning", "[Errno 32] Broken pipe"},
	// address-in-use
	{"address-in-use", "go", "exception", "critical", "listen tcp :{port}: bind: address already in use"},
	{"address-in-use", "js ts", "error_code exception", "critical", "listen EADDRINUSE: address already in use :::{port}"},
	// invalid-url
	{"invalid-url", "py", "exception validation", "error", "Invalid URL '{word}': No scheme supplied. Perhaps you meant https://{=word}?"},
	{"invalid-url", "go", "exception", "error", "parse \"{url}\": invalid port \":{word}\" after host"},
	{"invalid-url", "js ts", "exception", "error", "Invalid URL: {word}"},
	// circular-dependency
	{"circular-dependency", "", "exception", "error", "circular import detected: {module} -> {module} -> {=module}"},
	{"circular-dependency", "", "exception", "error", "circular dependency between {noun} {qname} and {qname}"},
	// missing-field
	{"missing-field", "rs", "exception validation", "error", "missing field `{name}` at line {n} column {n}"},
	{"missing-field", "py", "exception", "error", "{Type}.__init__() missing 1 required positional argument: '{name}'"},
	{"missing-field", "", "validation", "error", "required field {name} is missing from {noun}"},
	// duplicate-key
	{"duplicate-key", "", "exception error_code", "error", "duplicate key value violates unique constraint \"{name}\""},
	{"duplicate-key", "rs", "exception validation", "error", "duplicate field `{name}`"},
	{"duplicate-key", "", "validation", "warning", "duplicate {noun} {qname}: {=qname} already registered"},
	// lock-contention
	{"lock-contention", "", "exception", "error", "could not obtain lock on {noun} {qname} within {dur}"},
	// migration-failed
	{"migration-failed", "", "exception", "critical", "migration {n}_{name} failed: {noun} {qname} already exists"},
	// transaction-aborted
	{"transaction-aborted", "", "exception error_code", "error", "current transaction is aborted, commands ignored until end of transaction block"},
	{"transaction-aborted", "", "exception", "error", "transaction {hex} aborted due to serialization conflict"},
	// device-unavailable
	{"device-unavailable", "py cpp", "exception", "critical", "no {device} devices found, falling back to CPU"},
	{"device-unavailable", "", "exception", "error", "{device} device {n} is unavailable: {word}"},
	// compilation-failed
	{"compilation-failed", "", "exception", "error", "failed to compile {noun} {qname}: {n} errors"},
	{"compilation-failed", "", "exception", "error", "cannot find symbol {name} in module {module}"},
	// plugin-load-failed
	{"plugin-load-failed", "", "exception console", "error", "failed to load plugin {qname}: {word}"},
	// signal-interrupted
	{"signal-interrupted", "", "exception", "warning", "interrupted system call while {op} {noun}"},
	// empty-input
	{"empty-input", "", "validation exception", "error", "{noun} must not be empty"},
	{"empty-input", "", "validation", "warning", "cannot {verb} an empty {noun}"},
	// invalid-format
	{"invalid-format", "", "validation", "error", "invalid {noun} format: {qname}"},
	{"invalid-format", "py", "exception validation", "error", "time data '{date}' does not match format '%Y-%m-%d'"},
	// retry-exhausted
	{"retry-exhausted", "", "exception", "error", "giving up after {n} attempts: {noun} {op} failed"},
	{"retry-exhausted", "", "console", "warning", "retrying {noun} request in {dur} (attempt {n}/{n})"},
	// stack-overflow
	{"stack-overflow", "py", "exception", "critical", "maximum recursion depth exceeded while {op} {noun}"},
	{"stack-overflow", "go", "panic", "critical", "runtime: goroutine stack exceeds 1000000000-byte limit"},
	{"stack-overflow", "js ts", "exception", "critical", "Maximum call stack size exceeded"},
	// invalid-regex
	{"invalid-regex", "", "exception validation", "error", "invalid regular expression {qname}: missing closing )"},
	// no family: plain status messages most libraries print
	{"", "", "console", "info", "{noun} {qname} registered twice; keeping the first"},
	{"", "", "console", "info", "using default {name} = {n}"},
	{"", "", "exception", "error", "{fn} failed: {noun} {qname} is invalid"},
}
