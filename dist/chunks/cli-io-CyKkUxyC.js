const processHookIO = {
    cwd: () => process.cwd(),
    env: () => process.env,
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    stdinIsTTY: () => process.stdin.isTTY === true,
    readStdin: () => readAll(process.stdin),
};
async function readAll(stream) {
    const chunks = [];
    for await (const chunk of stream)
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return Buffer.concat(chunks).toString('utf8');
}

export { processHookIO as p };
