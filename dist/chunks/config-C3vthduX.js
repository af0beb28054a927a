import { ConfigError } from './errors-lvn-GX78.js';
import { ah as displayName, l as loadConfig } from './checkpoints-create-CJcO-Brq.js';
import { d as distExports } from './yaml-DFf8_hI8.js';
import { e as specialKind, u as unwrap, c as configSchema } from './schema-walk-D3lJz5DZ.js';
import { t as toJSONSchema } from './zod-Cpfq4OjR.js';
import { CliExit, ExitCode } from './exit-DPvLwpPv.js';






import './events-C_YfI5y8.js';

const DURATION_STEPS = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'm'],
    [1000, 's'],
];
/** The largest unit that divides exactly, so the text parses back to the same number of ms. */
function durationText(ms) {
    for (const [size, unit] of DURATION_STEPS)
        if (ms > 0 && ms % size === 0)
            return `${ms / size}${unit}`;
    return `${ms}ms`;
}
const SIZE_STEPS = [
    [1024 ** 3, 'GiB'],
    [1024 ** 2, 'MiB'],
    [1024, 'KiB'],
];
function sizeText(bytes) {
    for (const [size, unit] of SIZE_STEPS)
        if (bytes > 0 && bytes % size === 0)
            return `${bytes / size}${unit}`;
    return `${bytes}`;
}
const isPlainObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Converts a parsed value (or default) under `schema` back to its written form. */
function toInputForm(schema, value) {
    const kind = specialKind(schema);
    if (kind && typeof value === 'number')
        return kind === 'duration' ? durationText(value) : sizeText(value);
    const def = unwrap(schema)._zod.def;
    if (def.type === 'object' && isPlainObject(value)) {
        return Object.fromEntries(Object.entries(value).map(([key, child]) => [
            key,
            def.shape?.[key] ? toInputForm(def.shape[key], child) : child,
        ]));
    }
    if (def.type === 'record' && isPlainObject(value) && def.valueType) {
        const valueType = def.valueType;
        return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, toInputForm(valueType, child)]));
    }
    if (def.type === 'array' && Array.isArray(value) && def.element) {
        const element = def.element;
        return value.map((item) => toInputForm(element, item));
    }
    return value;
}

// The effective config as YAML users can paste back into proctor.yml (durations and sizes written
// with units, not as the ms and bytes proctor uses internally).
function configToYaml(config) {
    return distExports.stringify(toInputForm(configSchema, config), { lineWidth: 0 });
}

// The JSON Schema of proctor.yml for editors (yaml-language-server) and other tools, generated from
// the zod schema so the two cannot drift (a test compares it with schema/proctor.schema.json).
/** A URN rather than a URL: the schema is published with the repository, whose address is not fixed here. */
const CONFIG_SCHEMA_ID = 'urn:proctor:schema:proctor.yml:v1';
function configJsonSchema() {
    const generated = toJSONSchema(configSchema, {
        io: 'input',
        // Defaults are stored parsed (ms, bytes); zod leaves them out for inputs it cannot reverse. Write
        // them as users do ("30m", "5MiB") so an editor's suggestion means the same thing when pasted.
        override: ({ zodSchema, jsonSchema }) => {
            const def = zodSchema._zod.def;
            if (def.type !== 'default')
                return;
            jsonSchema.default = toInputForm(zodSchema, def.defaultValue);
        },
    });
    const { $schema, ...rest } = generated;
    return {
        $schema,
        $id: CONFIG_SCHEMA_ID,
        title: 'proctor.yml',
        description: 'Configuration of proctor, the supervisor for AI coding-agent sessions. Reference: docs/configuration.md',
        ...rest,
    };
}
/** The checked-in file's exact text: two-space JSON with a trailing newline. */
function configJsonSchemaText() {
    return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}

const processIO = {
    cwd: () => process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
};
function registerConfigCommand(program, io = processIO) {
    const config = program.command('config').description('check, show and describe proctor.yml');
    config
        .command('validate')
        .description('check proctor.yml and list every problem with file:line:col (exit 2 on errors)')
        .option('-c, --config <file>', 'the config file (default: proctor.yml at the repository root)')
        .option('--json', 'print {valid, file, issues, warnings} as JSON (for editors and CI annotations)')
        .action(async (opts) => {
        if (opts.json)
            return validateAsJson(opts, io);
        const loaded = await load(opts, io);
        const name = loaded.file ? displayName(loaded.file, io.cwd()) : null;
        io.stdout(name ? `${name}: valid\n` : 'no proctor.yml found; the defaults apply\n');
    });
    config
        .command('print')
        .description('print the effective config after defaults (YAML, or JSON with durations in ms and sizes in bytes)')
        .option('-c, --config <file>', 'the config file (default: proctor.yml at the repository root)')
        .option('--json', 'print JSON: durations in milliseconds, sizes in bytes')
        .action(async (opts) => {
        const loaded = await load(opts, io);
        io.stdout(opts.json ? `${JSON.stringify(loaded.config, null, 2)}\n` : configToYaml(loaded.config));
    });
    config
        .command('schema')
        .description('print the JSON Schema of proctor.yml')
        .action(() => {
        io.stdout(configJsonSchemaText());
    });
    return config;
}
/**
 * `config validate --json`: one JSON object on stdout whatever the outcome, each issue with its file, line,
 * column, key path, message and hint; the exit code is the same as without --json (2 when invalid).
 */
async function validateAsJson(opts, io) {
    const print = (value) => io.stdout(`${JSON.stringify(value, null, 2)}\n`);
    try {
        const loaded = await loadConfig({ file: opts.config, cwd: io.cwd() });
        const file = loaded.file ? displayName(loaded.file, io.cwd()) : null;
        print({ valid: true, file, issues: [], warnings: loaded.warnings });
    }
    catch (error) {
        if (!(error instanceof ConfigError))
            throw error;
        const file = error.issues[0]?.file ?? opts.config ?? null;
        print({ valid: false, file, issues: error.issues, warnings: [] });
        throw new CliExit(ExitCode.usage);
    }
}
async function load(opts, io) {
    try {
        const loaded = await loadConfig({ file: opts.config, cwd: io.cwd() });
        for (const warning of loaded.warnings)
            io.stderr(`warning: ${warning}\n`);
        return loaded;
    }
    catch (error) {
        if (error instanceof ConfigError)
            throw new CliExit(ExitCode.usage, error.message);
        throw error;
    }
}

export { registerConfigCommand };
