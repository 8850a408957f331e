import { useState } from 'react';
import { describeError } from '../api/api-error';
import { ConfirmDialog } from '../components/confirm-dialog';
import { useSignedIn } from '../session/session';
import { STOP_ALL_CONFIRMATION, stopAllSummary } from './stop-all-summary';

/**
 * "Stop all my trades": asks first, saying what it does, then
 * POST /trades/cancel-all (allowed in maintenance and under the kill switch,
 * when it is needed most) and a one-line summary; `onStopped` refreshes the list.
 */
export function StopAllTrades({ onStopped }: { onStopped: () => void }) {
  const { api } = useSignedIn();
  const [asking, setAsking] = useState(false);
  const [stopping, setStopping] = useState(false);
  const [summary, setSummary] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const stopAll = () => {
    setStopping(true);
    setSummary(null);
    setError(null);
    api.cancelAllTrades().then(
      (answer) => {
        setStopping(false);
        setSummary(stopAllSummary(answer).text);
        onStopped();
      },
      (failure: unknown) => {
        setStopping(false);
        setError(describeError(failure));
      },
    );
  };

  return (
    <div className="stop-all">
      <button type="button" className="danger" onClick={() => setAsking(true)} disabled={stopping}>
        {stopping ? 'Stopping…' : 'Stop all my trades'}
      </button>
      <ConfirmDialog
        open={asking}
        title={STOP_ALL_CONFIRMATION.title}
        confirm={STOP_ALL_CONFIRMATION.confirm}
        dismiss={STOP_ALL_CONFIRMATION.dismiss}
        testId="stop-all-dialog"
        onClose={(confirmed) => {
          setAsking(false);
          if (confirmed) {
            stopAll();
          }
        }}
      >
        {STOP_ALL_CONFIRMATION.sentences.map((sentence) => (
          <p key={sentence}>{sentence}</p>
        ))}
      </ConfirmDialog>
      {summary && (
        <p role="status" data-testid="stop-all-result">
          {summary}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
