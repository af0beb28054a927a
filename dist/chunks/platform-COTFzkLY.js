// proctor needs a POSIX system: hooks and `--shell` commands run through /bin/sh, the agent gets a process
// group that is signalled as a whole, and the watchdog is a shell script. Linux is what CI tests; macOS has
// all of it. On Windows none of it exists, so proctor refuses at once instead of failing mid-session.
function platformProblem(platform = process.platform) {
    if (platform !== 'win32')
        return null;
    return ('proctor runs on Linux and macOS (it needs /bin/sh and POSIX process groups), not on Windows; ' +
        'run it in WSL, or use a Linux runner (runs-on: ubuntu-latest) for the action');
}

export { platformProblem };
