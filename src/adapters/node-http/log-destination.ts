/** Where log lines go: stdout by default. */
export interface LogDestination {
  write(line: string): void;
}
