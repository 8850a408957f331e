import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal question with two answers, on the browser's own <dialog>: the page
 * behind it is inert, focus stays inside, Escape dismisses it and focus goes
 * back where it was. The safe answer comes first and has the focus, so Enter
 * pressed out of habit never confirms. Closing in any way calls `onClose` once,
 * with whether the trader confirmed. Not inside another form: it is one itself.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirm: string;
  dismiss: string;
  onClose: (confirmed: boolean) => void;
  testId?: string;
}) {
  const { open, onClose } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const safeAnswer = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const shown = dialog.current;
    if (!shown) {
      return;
    }
    if (open && !shown.open) {
      shown.returnValue = '';
      shown.showModal();
      safeAnswer.current?.focus();
    } else if (!open && shown.open) {
      shown.close();
    }
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      data-testid={props.testId}
      onClose={() => {
        if (open) {
          onClose(dialog.current?.returnValue === 'confirm');
        }
      }}
    >
      <form method="dialog">
        <h2 id={titleId}>{props.title}</h2>
        <div id={bodyId}>{props.children}</div>
        <div className="dialog-answers">
          <button ref={safeAnswer} type="submit" value="dismiss" className="secondary">
            {props.dismiss}
          </button>
          <button type="submit" value="confirm" className="danger">
            {props.confirm}
          </button>
        </div>
      </form>
    </dialog>
  );
}
