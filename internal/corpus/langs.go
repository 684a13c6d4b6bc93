package corpus

// Per-language pieces: error classes, type names, and the code shapes the
// source excerpts and the defensive-pattern fields are built from.
//
// Code templates use {name} placeholders filled by a strings.Replacer per
// record: {fn} {fn2} {fn3} the function names, {a} {b} variables, {Class} the
// error class, {msg} the message as a string expression of the language,
// {errorf} (Go) an error value, {cond} a guard condition, {noun} {Noun}
// {Type} repo words, {sub} a short substring of the message, {code} the
// error code, {status} the HTTP status. A line starting with "@" is the
// raising line; the "@" is removed.

type langKit struct {
	comment  string
	classes  map[string][]string // class category → classes
	types    []string
	conds    []string
	headers  []string
	fillers  []string
	raises   map[string][]string // errorType → raise blocks
	tails    []string
	fix      []string // exampleFix bodies; {c} is the comment marker
	validate []string
	guard    []string
	try      []string
	longLine string // a line that is far too long, for the rare minified excerpt
}

var kits = map[string]*langKit{
	langPy: {
		comment: "#",
		classes: map[string][]string{
			"conn":     {"ConnectionError", "requests.exceptions.ConnectionError", "ConnectionRefusedError", "urllib3.exceptions.NewConnectionError"},
			"timeout":  {"TimeoutError", "requests.exceptions.ReadTimeout", "asyncio.TimeoutError"},
			"resource": {"RuntimeError", "urllib3.exceptions.MaxRetryError", "OSError"},
			"perm":     {"PermissionError"}, "notfound": {"FileNotFoundError", "LookupError", "ModuleNotFoundError"},
			"arg": {"ValueError"}, "type": {"TypeError"}, "null": {"AttributeError"}, "index": {"IndexError"},
			"key": {"KeyError"}, "parse": {"json.JSONDecodeError", "ValueError", "SyntaxError"},
			"encoding": {"UnicodeDecodeError"}, "auth": {"AuthenticationError", "PermissionError"},
			"state": {"RuntimeError", "AssertionError"}, "unsupported": {"NotImplementedError"},
			"memory": {"MemoryError", "torch.cuda.OutOfMemoryError"}, "io": {"OSError", "IOError", "EOFError"},
			"http": {"requests.exceptions.HTTPError", "HTTPException"}, "runtime": {"RuntimeError", "RecursionError"},
		},
		types: []string{"int", "str", "float", "NoneType", "list", "dict", "bytes", "tuple", "ndarray", "Tensor"},
		conds: []string{"{a} is None", "not {a}", "len({a}) > self._max_{b}", "{a} >= (1 << 16)", "{b} not in self._{a}s", "self._closed", "{a} < 0"},
		headers: []string{
			"    def {fn}(self, {a}, {b}=None):\n        \"\"\"{Doc}\"\"\"",
			"    def {fn}(self, {a}, *, {b}=None, timeout=None):\n        \"\"\"{Doc}\n\n        Args:\n            {a}: the {noun} to use.\n        \"\"\"",
			"    async def {fn}(self, {a}: str, {b}: int = 0) -> None:",
		},
		fillers: []string{
			"        {a} = self._{b}.get({a})", "        # {Comment}", "        {b} = {fn2}({a}, timeout=self.timeout)",
			"        logger.debug(\"{op} %s\", {a})", "        if {b} is None:\n            {b} = self.default_{b}",
			"        for item in {a}s:\n            self._{fn3}(item)", "        self._{b}_count += 1", "        {c} = self._resolve_{c}({a})", "        if {c} and not self._{c}_checked:\n            self._check_{c}({c})",
			"        {a} = os.fspath({a})", "        {b} = dict(self._{noun_}_options)",
		},
		raises: map[string][]string{
			"exception":  {"        if {cond}:\n@            raise {Class}(\n                {msg}\n            )", "        if {cond}:\n@            raise {Class}({msg})", "        try:\n            {b} = self._{fn2}({a})\n        except OSError as exc:\n@            raise {Class}({msg}) from exc"},
			"console":    {"        if {cond}:\n@            logger.warning({msg})\n            return None", "        if {cond}:\n@            warnings.warn({msg}, DeprecationWarning, stacklevel=2)"},
			"validation": {"        if {cond}:\n@            raise ValueError({msg})", "        if {cond}:\n@            raise {Class}(\n                {msg}\n            )"},
			"http":       {"        if {cond}:\n@            raise {Class}({msg}, response=self)", "        if response.status_code == {status}:\n@            raise {Class}({msg}, response=response)"},
			"error_code": {"        if {cond}:\n@            raise {Class}({msg}, code=\"{code}\")"},
			"panic":      {"        if {cond}:\n@            raise SystemExit({msg})"},
		},
		tails:    []string{"        return {b}", "        return self", "        return {a}"},
		fix:      []string{"# before\n{b} = {fn}({a})\n\n# after\nif {a} is not None:\n    {b} = {fn}({a})\nelse:\n    {b} = default_{noun_}()", "# before\nresult = client.{fn}({a})\n\n# after\ntry:\n    result = client.{fn}({a})\nexcept {Class}:\n    result = client.{fn}({a}, retries=3)"},
		validate: []string{"def check_{a}({a}):\n    if {a} is None:\n        raise ValueError('{a} is required')\n    return {a}", "assert {a} is not None, '{a} must be set before {fn}()'"},
		guard:    []string{"def is_{noun_}_error(exc: BaseException) -> bool:\n    return isinstance(exc, {Class}) and '{sub}' in str(exc)"},
		try:      []string{"try:\n    {fn}({a})\nexcept {Class} as exc:\n    if '{sub}' in str(exc):\n        logger.warning('recovering: %s', exc)\n        {fn}({a}, {b}=fallback)\n    else:\n        raise"},
		longLine: "        _TABLE = [",
	},
	langGo: {
		comment: "//",
		classes: map[string][]string{
			"conn": {"*net.OpError", "*url.Error"}, "timeout": {"context.deadlineExceededError", "*net.OpError"},
			"resource": {"*errors.errorString", "*fmt.wrapError"}, "perm": {"*fs.PathError"}, "notfound": {"*fs.PathError", "*errors.errorString"},
			"arg": {"*errors.errorString", "*strconv.NumError"}, "type": {"*runtime.TypeAssertionError", "*json.UnmarshalTypeError"},
			"null": {"runtime.Error"}, "index": {"runtime.boundsError"}, "key": {"*errors.errorString"},
			"parse": {"*json.SyntaxError", "*strconv.NumError"}, "encoding": {"*errors.errorString"}, "auth": {"*jwt.ValidationError"},
			"state": {"*errors.errorString"}, "unsupported": {"*errors.errorString"}, "memory": {"runtime.Error"},
			"io": {"*fs.PathError", "*errors.errorString"}, "http": {"*HTTPError", "*url.Error"}, "runtime": {"runtime.Error"},
		},
		types: []string{"string", "int64", "[]byte", "float64", "bool", "map[string]any", "*Config", "uint32"},
		conds: []string{"{a} == nil", "len({a}) == 0", "{b} > maxChannels", "err != nil", "!ok", "{a}.closed"},
		headers: []string{
			"// {Fn} {doc}\nfunc (c *Client) {Fn}(ctx context.Context, {a} string) (*{Type}, error) {",
			"func {fn}({a} []byte, {b} int) error {",
		},
		fillers: []string{
			"\t{b}, ok := c.{a}s[{a}]", "\t// {Comment}", "\tc.mu.Lock()\n\tdefer c.mu.Unlock()", "\t{b}, err := {fn2}(ctx, {a})",
			"\tif {b} == nil {\n\t\t{b} = defaultOptions()\n\t}", "\tfor _, item := range {a} {\n\t\tc.{fn3}(item)\n\t}", "\tc.stats.{Noun}++",
			"\tlog.Printf(\"{op} %s\", {a})", "\t{c} := c.opts.{c}", "\tif {c} := c.{c}(); {c} != \"\" {\n\t\t{a} = {c}\n\t}",
		},
		raises: map[string][]string{
			"exception":  {"\tif {cond} {\n@\t\treturn nil, {errorf}\n\t}", "\tif {cond} {\n@\t\treturn &{Type}Error{Op: \"{op}\", Err: {errorf}}\n\t}"},
			"error_code": {"\tif {cond} {\n@\t\treturn nil, &Error{Code: \"{code}\", Msg: {msg}}\n\t}"},
			"console":    {"\tif {cond} {\n@\t\tlog.Printf({msgf})\n\t\treturn nil, nil\n\t}"},
			"http":       {"\tif resp.StatusCode == {status} {\n@\t\treturn nil, &HTTPError{Status: resp.StatusCode, Msg: {msg}}\n\t}", "\tif {cond} {\n@\t\thttp.Error(w, {msg}, {status})\n\t\treturn\n\t}"},
			"validation": {"\tif {cond} {\n@\t\treturn nil, {errorf}\n\t}"},
			"panic":      {"\tif {cond} {\n@\t\tpanic({msg})\n\t}"},
		},
		tails:    []string{"\treturn {b}, nil\n}", "\treturn nil\n}", "\treturn c.{fn3}(ctx, {b})\n}"},
		fix:      []string{"// before\n{b}, _ := {fn}(ctx, {a})\n\n// after\n{b}, err := {fn}(ctx, {a})\nif err != nil {\n\treturn fmt.Errorf(\"{fn}: %w\", err)\n}", "// before\nctx := context.Background()\n\n// after\nctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)\ndefer cancel()"},
		validate: []string{"if {a} == \"\" {\n\treturn errors.New(\"{a} is required\")\n}", "if len({a}) > max{Noun} {\n\treturn fmt.Errorf(\"{a}: %d exceeds limit %d\", len({a}), max{Noun})\n}"},
		guard:    []string{"var target {Class}\nif errors.As(err, &target) {\n\t// handle {noun} failure\n}", "if errors.Is(err, os.ErrNotExist) {\n\treturn nil\n}"},
		try:      []string{"{b}, err := c.{Fn}(ctx, {a})\nif err != nil {\n\tif strings.Contains(err.Error(), \"{sub}\") {\n\t\treturn retry(ctx, func() error { _, err := c.{Fn}(ctx, {a}); return err })\n\t}\n\treturn err\n}\n_ = {b}"},
		longLine: "var table = []uint32{",
	},
	langTS: {
		comment: "//",
		classes: map[string][]string{
			"conn": {"Error", "AxiosError", "FetchError"}, "timeout": {"AxiosError", "TimeoutError", "AbortError"},
			"resource": {"RangeError", "Error"}, "perm": {"Error"}, "notfound": {"Error", "NotFoundError"},
			"arg": {"TypeError", "RangeError", "ValidationError"}, "type": {"TypeError"}, "null": {"TypeError"}, "index": {"RangeError"},
			"key": {"Error"}, "parse": {"SyntaxError"}, "encoding": {"TypeError"}, "auth": {"AuthError", "AxiosError"},
			"state": {"Error"}, "unsupported": {"Error"}, "memory": {"RangeError"}, "io": {"Error"}, "http": {"AxiosError", "HttpError"}, "runtime": {"Error", "RangeError"},
		},
		types: []string{"string", "number", "undefined", "null", "boolean", "string[]", "Record<string, unknown>", "Promise<void>"},
		conds: []string{"{a} === undefined", "!{b}", "{a}.length > this.max{Noun}", "this.closed", "typeof {a} !== 'string'", "!res.ok"},
		headers: []string{
			"  /**\n   * {Doc}\n   */\n  async {fn}({a}: string, {b}?: {Type}Options): Promise<{Type}> {",
			"  {fn}({a}: unknown, {b} = {}): void {",
		},
		fillers: []string{
			"    const {b} = this.{a}s.get({a});", "    // {Comment}", "    const res = await this.{fn2}({a}, { signal });",
			"    if ({b} == null) {\n      return this.defaults.{b};\n    }", "    for (const item of {a}) {\n      this.{fn3}(item);\n    }",
			"    this.emit('{op}', {a});", "    debug('{op} %s', {a});", "    const {c} = options.{c} ?? this.{c};", "    if ({c} !== undefined) {\n      this.{c} = {c};\n    }",
		},
		raises: map[string][]string{
			"exception":  {"    if ({cond}) {\n@      throw new {Class}({msg});\n    }", "    if ({cond}) {\n@      throw new {Class}(\n        {msg},\n      );\n    }"},
			"error_code": {"    if ({cond}) {\n@      throw new {Class}({msg}, '{code}');\n    }"},
			"console":    {"    if ({cond}) {\n@      console.warn({msg});\n      return;\n    }"},
			"http":       {"    if (res.status === {status}) {\n@      throw new {Class}({msg}, { status: res.status });\n    }"},
			"validation": {"    if ({cond}) {\n@      throw new TypeError({msg});\n    }"},
			"panic":      {"    if ({cond}) {\n@      throw new Error({msg});\n    }"},
		},
		tails:    []string{"    return {b};\n  }", "    return this;\n  }", "  }"},
		fix:      []string{"// before\nconst {b} = await {fn}({a});\n\n// after\nconst {b} = await {fn}({a}).catch((err) => {\n  if (is{Type}Error(err)) return undefined;\n  throw err;\n});", "// before\nclient.{fn}({a});\n\n// after\nif ({a} !== undefined) {\n  client.{fn}({a});\n}"},
		validate: []string{"if (typeof {a} !== 'string' || {a}.length === 0) {\n  throw new TypeError('{a} must be a non-empty string');\n}"},
		guard:    []string{"function is{Type}Error(err: unknown): err is {Class} {\n  return err instanceof Error && err.message.includes('{sub}');\n}"},
		try:      []string{"try {\n  await {fn}({a});\n} catch (err) {\n  if (err instanceof Error && err.message.includes('{sub}')) {\n    await {fn}({a}, { retry: true });\n  } else {\n    throw err;\n  }\n}"},
		longLine: "const TABLE = [",
	},
	langJS: {
		comment: "//",
		classes: map[string][]string{
			"conn": {"Error", "AxiosError"}, "timeout": {"AxiosError", "Error"}, "resource": {"RangeError", "Error"}, "perm": {"Error"},
			"notfound": {"Error"}, "arg": {"TypeError", "RangeError"}, "type": {"TypeError"}, "null": {"TypeError"}, "index": {"RangeError"},
			"key": {"Error"}, "parse": {"SyntaxError"}, "encoding": {"TypeError"}, "auth": {"Error"}, "state": {"Error"},
			"unsupported": {"Error"}, "memory": {"RangeError"}, "io": {"Error"}, "http": {"AxiosError", "HTTPError"}, "runtime": {"Error", "RangeError"},
		},
		types: []string{"string", "number", "undefined", "object", "function", "boolean"},
		conds: []string{"{a} === undefined", "!{b}", "{a}.length > this.max{Noun}", "this.destroyed", "typeof {a} !== 'function'"},
		headers: []string{
			"  {fn}({a}, {b}) {", "  async {fn}({a}, options = {}) {", "  /**\n   * {Doc}\n   */\n  {fn}({a}, {b} = null) {",
		},
		fillers: []string{
			"    const {b} = this._{a}s.get({a});", "    // {Comment}", "    const res = await {fn2}({a});",
			"    if ({b} == null) {\n      {b} = this.defaults.{b};\n    }", "    this.emit('{op}', {a});", "    {a}.forEach((item) => this._{fn3}(item));", "    const {c} = options.{c} || this._{c};",
		},
		raises: map[string][]string{
			"exception":  {"    if ({cond}) {\n@      throw new {Class}({msg});\n    }"},
			"error_code": {"    if ({cond}) {\n      const err = new {Class}({msg});\n      err.code = '{code}';\n@      throw err;\n    }"},
			"console":    {"    if ({cond}) {\n@      console.error({msg});\n      return null;\n    }"},
			"http":       {"    if (res.status === {status}) {\n@      return Promise.reject(new {Class}({msg}, res));\n    }"},
			"validation": {"    if ({cond}) {\n@      throw new TypeError({msg});\n    }"},
			"panic":      {"    if ({cond}) {\n@      process.emitWarning({msg});\n    }"},
		},
		tails:    []string{"    return {b};\n  }", "  }", "    return this;\n  }"},
		fix:      []string{"// before\nconst {b} = {fn}({a});\n\n// after\nconst {b} = {a} === undefined ? null : {fn}({a});"},
		validate: []string{"if ({a} == null) {\n  throw new TypeError('{a} is required');\n}"},
		guard:    []string{"function is{Type}Error(err) {\n  return err instanceof Error && err.message.includes('{sub}');\n}"},
		try:      []string{"try {\n  {fn}({a});\n} catch (err) {\n  if (err && err.code === '{code}') {\n    return fallback();\n  }\n  throw err;\n}"},
		longLine: "const TABLE = [",
	},
	langRs: {
		comment: "//",
		classes: map[string][]string{
			"conn": {"std::io::Error", "hyper::Error", "reqwest::Error"}, "timeout": {"tokio::time::error::Elapsed", "std::io::Error"},
			"resource": {"Error::LimitExceeded", "std::io::Error"}, "perm": {"std::io::Error"}, "notfound": {"std::io::Error", "Error::NotFound"},
			"arg": {"Error::InvalidArgument", "std::num::ParseIntError"}, "type": {"serde_json::Error", "Error::TypeMismatch"},
			"null": {"core::option::Option"}, "index": {"core::panicking"}, "key": {"Error::MissingKey"}, "parse": {"serde_json::Error", "toml::de::Error"},
			"encoding": {"std::string::FromUtf8Error", "std::str::Utf8Error"}, "auth": {"Error::Unauthorized"}, "state": {"Error::InvalidState"},
			"unsupported": {"Error::Unsupported"}, "memory": {"std::alloc::AllocError"}, "io": {"std::io::Error"}, "http": {"reqwest::Error", "hyper::Error"},
			"runtime": {"Error::Internal"},
		},
		types: []string{"i64", "u32", "String", "&str", "Vec<u8>", "f64", "bool", "Option<usize>"},
		conds: []string{"{a}.is_empty()", "{b} > MAX_{NOUN}", "self.closed", "{a}.len() < HEADER_LEN", "!self.{a}s.contains_key(&{a})"},
		headers: []string{
			"    /// {Doc}\n    pub fn {fn}(&mut self, {a}: &str) -> Result<{Type}, Error> {",
			"    pub(crate) async fn {fn}(&self, {a}: &[u8], {b}: usize) -> io::Result<()> {",
		},
		fillers: []string{
			"        let {b} = self.{a}s.get({a}).cloned();", "        // {Comment}", "        let {b} = {fn2}({a}).await?;",
			"        trace!(\"{op} {:?}\", {a});", "        let mut buf = Vec::with_capacity({b});", "        let {c} = self.config.{c}.clone();", "        for item in {a}.iter() {\n            self.{fn3}(item)?;\n        }",
		},
		raises: map[string][]string{
			"exception":  {"        if {cond} {\n@            return Err({Class}::new({msg}));\n        }", "        if {cond} {\n@            return Err(Error::from(io::Error::new(io::ErrorKind::Other, {msg})));\n        }"},
			"error_code": {"        if {cond} {\n@            return Err(Error::with_code(\"{code}\", {msg}));\n        }"},
			"console":    {"        if {cond} {\n@            warn!({msgf});\n            return Ok(());\n        }"},
			"http":       {"        if resp.status() == {status} {\n@            return Err(Error::Http({status}, {msg}));\n        }"},
			"validation": {"        if {cond} {\n@            return Err(Error::InvalidArgument({msg}));\n        }"},
			"panic":      {"        if {cond} {\n@            panic!({msgf});\n        }", "@        let {b} = self.{a}s.get({a}).unwrap();"},
		},
		tails:    []string{"        Ok({b})\n    }", "        Ok(())\n    }"},
		fix:      []string{"// before\nlet {b} = {fn}({a}).unwrap();\n\n// after\nlet {b} = match {fn}({a}) {\n    Ok(v) => v,\n    Err(e) => return Err(e.into()),\n};"},
		validate: []string{"if {a}.is_empty() {\n    return Err(Error::InvalidArgument(\"{a} must not be empty\".into()));\n}"},
		guard:    []string{"if let Some(e) = err.downcast_ref::<std::io::Error>() {\n    if e.kind() == std::io::ErrorKind::NotFound {\n        return Ok(None);\n    }\n}"},
		try:      []string{"match {fn}({a}) {\n    Ok(v) => v,\n    Err(e) if e.to_string().contains(\"{sub}\") => {\n        tracing::warn!(\"retrying after {}\", e);\n        {fn}({a})?\n    }\n    Err(e) => return Err(e),\n}"},
		longLine: "static TABLE: [u32; 256] = [",
	},
	langJava: {
		comment: "//",
		classes: map[string][]string{
			"conn": {"java.net.ConnectException", "org.springframework.web.client.ResourceAccessException"}, "timeout": {"java.util.concurrent.TimeoutException", "java.net.SocketTimeoutException"},
			"resource": {"java.lang.IllegalStateException", "org.springframework.core.task.TaskRejectedException"}, "perm": {"java.nio.file.AccessDeniedException", "java.lang.SecurityException"},
			"notfound": {"java.io.FileNotFoundException", "java.util.NoSuchElementException"}, "arg": {"java.lang.IllegalArgumentException"},
			"type": {"java.lang.ClassCastException"}, "null": {"java.lang.NullPointerException"}, "index": {"java.lang.IndexOutOfBoundsException"},
			"key":   {"org.springframework.beans.factory.NoSuchBeanDefinitionException", "java.util.NoSuchElementException"},
			"parse": {"com.fasterxml.jackson.core.JsonParseException", "java.time.format.DateTimeParseException"}, "encoding": {"java.nio.charset.MalformedInputException"},
			"auth": {"org.springframework.security.authentication.BadCredentialsException"}, "state": {"java.lang.IllegalStateException"},
			"unsupported": {"java.lang.UnsupportedOperationException"}, "memory": {"java.lang.OutOfMemoryError"}, "io": {"java.io.IOException", "java.io.UncheckedIOException"},
			"http": {"org.springframework.web.client.HttpClientErrorException", "org.springframework.web.server.ResponseStatusException"}, "runtime": {"java.lang.RuntimeException"},
		},
		types: []string{"java.lang.String", "java.lang.Integer", "int", "long", "java.util.List", "java.util.Map"},
		conds: []string{"{a} == null", "{a}.isEmpty()", "{b} > this.max{Noun}", "this.closed", "!{a}s.containsKey({a})"},
		headers: []string{
			"\t/**\n\t * {Doc}\n\t */\n\tpublic {Type} {fn}(String {a}, int {b}) {",
			"\t@Override\n\tprotected void {fn}({Type} {a}) throws IOException {",
		},
		fillers: []string{
			"\t\t{Type} {b} = this.{a}s.get({a});", "\t\t// {Comment}", "\t\tAssert.notNull({a}, \"{a} must not be null\");",
			"\t\tif (logger.isDebugEnabled()) {\n\t\t\tlogger.debug(\"{op} \" + {a});\n\t\t}", "\t\tfor ({Type} item : {a}s) {\n\t\t\t{fn3}(item);\n\t\t}",
			"\t\tint {b} = this.{fn2}({a});", "\t\tString {c} = this.properties.get{C}();",
		},
		raises: map[string][]string{
			"exception":  {"\t\tif ({cond}) {\n@\t\t\tthrow new {Class}({msg});\n\t\t}", "\t\tif ({cond}) {\n@\t\t\tthrow new {Class}(\n\t\t\t\t\t{msg});\n\t\t}"},
			"error_code": {"\t\tif ({cond}) {\n@\t\t\tthrow new {Type}Exception(\"{code}\", {msg});\n\t\t}"},
			"console":    {"\t\tif ({cond}) {\n@\t\t\tlogger.warn({msg});\n\t\t\treturn null;\n\t\t}"},
			"http":       {"\t\tif (response.getStatusCode().value() == {status}) {\n@\t\t\tthrow new {Class}(HttpStatus.valueOf({status}), {msg});\n\t\t}"},
			"validation": {"\t\tif ({cond}) {\n@\t\t\tthrow new IllegalArgumentException({msg});\n\t\t}"},
			"panic":      {"\t\tif ({cond}) {\n@\t\t\tthrow new Error({msg});\n\t\t}"},
		},
		tails:    []string{"\t\treturn {b};\n\t}", "\t}"},
		fix:      []string{"// before\n{Type} {b} = service.{fn}({a});\n\n// after\n{Type} {b} = Optional.ofNullable({a})\n\t\t.map(service::{fn})\n\t\t.orElseGet(this::default{Type});"},
		validate: []string{"Objects.requireNonNull({a}, \"{a} must not be null\");", "if ({a} == null || {a}.isBlank()) {\n\tthrow new IllegalArgumentException(\"{a} is required\");\n}"},
		guard:    []string{"if (ex instanceof {Class} e && e.getMessage() != null && e.getMessage().contains(\"{sub}\")) {\n\treturn fallback();\n}"},
		try:      []string{"try {\n\treturn service.{fn}({a});\n}\ncatch ({Class} ex) {\n\tlogger.warn(\"{fn} failed, using fallback\", ex);\n\treturn fallback({a});\n}"},
		longLine: "\tprivate static final int[] TABLE = {",
	},
	langCpp: {
		comment: "//",
		classes: map[string][]string{
			"conn": {"std::system_error", "grpc::Status"}, "timeout": {"std::system_error", "absl::Status"}, "resource": {"std::length_error", "absl::Status"},
			"perm": {"std::filesystem::filesystem_error"}, "notfound": {"std::filesystem::filesystem_error", "absl::Status"}, "arg": {"std::invalid_argument"},
			"type": {"std::bad_cast", "std::invalid_argument"}, "null": {"std::logic_error"}, "index": {"std::out_of_range"}, "key": {"std::out_of_range"},
			"parse": {"std::runtime_error", "nlohmann::json::parse_error"}, "encoding": {"std::range_error"}, "auth": {"grpc::Status"},
			"state": {"std::logic_error", "absl::Status"}, "unsupported": {"std::logic_error"}, "memory": {"std::bad_alloc"}, "io": {"std::ios_base::failure", "std::runtime_error"},
			"http": {"std::runtime_error"}, "runtime": {"std::runtime_error"},
		},
		types: []string{"int", "std::string", "double", "int64_t", "size_t", "std::vector<uint8_t>", "bool"},
		conds: []string{"{a} == nullptr", "{a}.empty()", "{b} > kMax{Noun}", "!status.ok()", "closed_", "{a}.size() < kHeaderSize"},
		headers: []string{
			"{Type}* {Type}Manager::{Fn}(absl::string_view {a}, int {b}) {",
			"void {Type}::{Fn}(const std::string& {a}) {",
		},
		fillers: []string{
			"  auto it = {a}s_.find({a});", "  // {Comment}", "  absl::MutexLock lock(&mu_);", "  const int {b} = {fn2}({a});",
			"  if ({b} == nullptr) {\n    {b} = Default{Type}();\n  }", "  for (const auto& item : {a}) {\n    {fn3}(item);\n  }", "  VLOG(2) << \"{op} \" << {a};", "  const auto& {c} = options_.{c}();",
		},
		raises: map[string][]string{
			"exception":  {"  if ({cond}) {\n@    throw {Class}({msg});\n  }", "  if ({cond}) {\n@    throw {Class}(\n        {msg});\n  }"},
			"error_code": {"  if ({cond}) {\n@    return absl::InvalidArgumentError({msg});\n  }"},
			"console":    {"  if ({cond}) {\n@    LOG(WARNING) << {msg};\n    return;\n  }"},
			"http":       {"  if (response.status_code == {status}) {\n@    throw {Class}({msg});\n  }"},
			"validation": {"  if ({cond}) {\n@    throw std::invalid_argument({msg});\n  }"},
			"panic":      {"@  CHECK({cond2}) << {msg};", "  if ({cond}) {\n@    LOG(FATAL) << {msg};\n  }"},
		},
		tails:    []string{"  return {b};\n}", "}"},
		fix:      []string{"// before\nauto* {b} = manager.{Fn}({a}, 0);\n\n// after\nif ({a}.empty()) {\n  return absl::InvalidArgumentError(\"{a} is empty\");\n}\nauto* {b} = manager.{Fn}({a}, 0);"},
		validate: []string{"if ({a}.empty()) {\n  return absl::InvalidArgumentError(\"{a} must not be empty\");\n}"},
		guard:    []string{"if (const auto* e = dynamic_cast<const {Class}*>(&ex)) {\n  // {noun} failure: recoverable\n}"},
		try:      []string{"try {\n  manager.{Fn}({a}, {b});\n} catch (const {Class}& e) {\n  LOG(WARNING) << \"{Fn} failed: \" << e.what();\n  manager.Reset();\n}"},
		longLine: "static const uint32_t kTable[] = {",
	},
}

// comments are sentences for source comments; {noun} etc. are filled.
var comments = []string{
	"Keep the {noun} alive until the caller is done with it.",
	"{Op} is not reentrant; callers hold the lock.",
	"TODO: handle partial {noun} reads here.",
	"Fast path: most callers pass a cached {noun}.",
	"The {noun} may have been closed by another goroutine or thread.",
	"Validate early so the error names the argument, not an internal detail.",
	"See the upstream issue about {noun} limits.",
	"Backwards compatibility: older clients send no {noun}.",
	"This mirrors the behaviour of the reference implementation.",
	"Do not retry here; the caller owns the retry policy.",
}

// docSentences describe a function in a header doc comment.
var docSentences = []string{
	"Returns the {noun} for the given key, loading it if needed.",
	"Sends the {noun} and waits for the acknowledgement.",
	"Opens a new {noun} with the configured options.",
	"Resolves the {noun} and caches the result.",
	"Applies the pending changes to the {noun}.",
	"Validates and normalises the {noun} before use.",
}

// verbs are the imperative operations used by some templates.
var verbs = []string{"delete", "update", "create", "read", "write", "resize", "close", "reopen", "flush", "list", "watch", "merge"}

// states fill {state}.
var states = []string{"closed", "draining", "pending", "terminated", "uninitialized", "readonly", "failed", "shutdown"}

// reasons maps an HTTP status to its reason phrase.
var reasons = map[int]string{
	400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 409: "Conflict",
	410: "Gone", 413: "Payload Too Large", 422: "Unprocessable Entity", 429: "Too Many Requests",
	500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
}

var status4 = []int{400, 401, 403, 404, 409, 410, 413, 422}
var status5 = []int{500, 502, 503, 504}
