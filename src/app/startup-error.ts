/** A start-up refusal whose message is the whole story (printed as is, no stack): its own module, so the CLI's error path loads nothing else. */
export class StartupError extends Error {
  override name = 'StartupError';
}
