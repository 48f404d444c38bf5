/**
 * What the scripts of docs/quickstart.md share: each is a few commands run as `npx tsx docs/quickstart/<script>
 * <command>`, whose standard output is only `export` lines (for `eval`) and whose standard error is what the
 * reader sees.
 */

/** Shown to the reader (standard error, which `eval "$(…)"` lets through); standard output is for `eval`. */
export const say = (text: string) => console.error(text);

/** A variable set in the reader's shell. */
export const exportLine = (name: string, value: string) => console.log(`export ${name}='${value.replace(/'/g, `'\\''`)}'`);

/** A variable an earlier step of docs/quickstart.md set. */
export const need = (name: string) =>
  process.env[name] ??
  (() => {
    throw new Error(`${name} is not set (see docs/quickstart.md)`);
  })();

/** The service's main base (BASE_URL, default http://localhost:3000, and the local stage). */
export const baseUrl = () => `${process.env.BASE_URL ?? 'http://localhost:3000'}/v2-testing`;

/** Runs the command named by the first argument when the script is the one started (not imported). */
export function runCommands(moduleUrl: string, script: string, commands: Record<string, () => Promise<void>>) {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  const command = commands[process.argv[2] ?? ''];
  if (!command) {
    console.error(`usage: npx tsx docs/quickstart/${script} ${Object.keys(commands).join('|')}`);
    process.exit(2);
  }
  command().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
