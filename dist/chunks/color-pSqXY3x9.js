// Whether the CLI colours what it prints, decided in one place: NO_COLOR (https://no-color.org, any non-empty
// value) turns colour off; FORCE_COLOR turns it on where a terminal is not (a CI log that renders ANSI), and
// FORCE_COLOR=0 (or "false") off; otherwise colour only on a terminal.
function useColor(stream, env = process.env) {
    if (env.NO_COLOR)
        return false;
    const force = env.FORCE_COLOR;
    if (force !== undefined)
        return !['0', 'false'].includes(force.trim().toLowerCase());
    return stream.isTTY === true;
}

export { useColor as u };
