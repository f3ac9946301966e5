/**
 * afp's command-line entry: the process around dispatch.ts, which turns argv into an exit code. Here
 * only what belongs to the process: printing that survives a closed pipe, the exit code, and a crash
 * (an error nothing returned) as exit 1 with its stack (both through process-exit.ts).
 */
import { dispatch } from './dispatch.ts';
import { crashProcess, setProcessExit } from './process-exit.ts';

/**
 * A reader that goes away (`afp run … | head -1`) ends afp's printing, not its work: the command
 * goes on, writes its reports and exits with its own code. Unhandled, the first write to the closed
 * pipe threw EPIPE as an 'error' event: a stack trace and exit 1, afp's code for its own crash.
 * Later writes to the closed stream fail quietly (Node reports a destroyed stream's error once). Any
 * other error of the stream is still thrown.
 */
function endPrintingOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

endPrintingOnClosedPipe(process.stdout);
endPrintingOnClosedPipe(process.stderr);

dispatch(process.argv.slice(2)).then(setProcessExit, crashProcess);
