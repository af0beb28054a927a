import { agentPresetChoices, findAgentPreset } from './index-DCWxLwDL.js';

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
/** The preset to apply, or null. Throws an Error naming the choices for an unknown name. */
function chosenPreset(raw, choice = {}) {
    const fromFile = isObject(raw) && isObject(raw.agent) ? raw.agent.preset : undefined;
    const name = choice.preset ?? fromFile;
    if (name === undefined || name === null)
        return null;
    const preset = typeof name === 'string' ? findAgentPreset(name) : undefined;
    if (!preset) {
        // An unknown name in the file is left to the schema, which reports it at its line.
        if (choice.preset === undefined)
            return null;
        throw new Error(`unknown agent preset "${String(name)}"; choose one of: ${agentPresetChoices().join(', ')}`);
    }
    return preset;
}
/** The user's raw config with the preset beneath it (a new object; `raw` is not changed). */
function applyAgentPreset(raw, choice = {}) {
    const preset = chosenPreset(raw, choice);
    if (!preset)
        return raw;
    const user = isObject(raw) ? raw : {};
    const argv = choice.argv ?? agentArgv(user);
    let base = preset.config;
    if (preset.interactive && preset.isInteractive?.(argv))
        base = merge(base, preset.interactive, []);
    const merged = merge(base, user, []);
    merged.agent = { ...(isObject(merged.agent) ? merged.agent : {}), preset: preset.name };
    return merged;
}
function agentArgv(user) {
    const agent = isObject(user.agent) ? user.agent : {};
    if (Array.isArray(agent.command))
        return agent.command.filter((a) => typeof a === 'string');
    if (typeof agent.shell === 'string')
        return agent.shell.split(/\s+/);
    return [];
}
/** Deep merge where `over` wins; detect rules merge by name, hook lists concatenate. */
function merge(under, over, path) {
    if (over === undefined)
        return structuredClone(under);
    if (under === undefined)
        return structuredClone(over);
    const key = path.join('.');
    if (key === 'detect' && Array.isArray(under) && Array.isArray(over))
        return mergeRules(under, over);
    if ((path[0] === 'hooks' && path.length === 2) || key === 'stop_hooks') {
        if (Array.isArray(under) && Array.isArray(over))
            return [...structuredClone(under), ...structuredClone(over)];
    }
    if (isObject(under) && isObject(over)) {
        const out = {};
        for (const k of new Set([...Object.keys(under), ...Object.keys(over)]))
            out[k] = merge(under[k], over[k], [...path, k]);
        return out;
    }
    return structuredClone(over);
}
/** The user's rules first (they are matched first), then the preset's that the user did not replace. */
function mergeRules(presetRules, userRules) {
    const names = new Set(userRules.map((r) => (isObject(r) ? r.name : undefined)));
    const kept = presetRules.filter((r) => !(isObject(r) && names.has(r.name)));
    return [...structuredClone(userRules), ...structuredClone(kept)];
}

export { applyAgentPreset, chosenPreset };
