/** Types of broken-server.mjs (a harness server breaking one rule under load). */
export interface BrokenServer {
  url: string;
  close(): Promise<void>;
}
export function startBrokenServer(opts: {
  fault: 'misalign' | 'signature' | 'none';
  port?: number;
  busyAt?: number;
  every?: number;
}): Promise<BrokenServer>;
