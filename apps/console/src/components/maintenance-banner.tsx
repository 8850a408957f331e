import { useMaintenance, type MaintenanceFlag } from '../live/live';

const describe = (flag: MaintenanceFlag): string => {
  const why = flag.reason ? `: ${flag.reason}` : '';
  switch (flag.exchange) {
    case '_kill_switch':
      return `Kill switch on: trading is halted, new trades are refused and running trades pause${why}`;
    case '_system':
      return `System maintenance: new trades and amendments are refused, running trades pause${why}`;
    default:
      return `${flag.exchange} is in maintenance: trades on it pause${why}`;
  }
};

/** Maintenance and kill-switch flags in force, as the notifier pushes them. */
export function MaintenanceBanner() {
  const flags = useMaintenance();
  if (flags.length === 0) {
    return null;
  }
  const halted = flags.some(
    (flag) => flag.exchange === '_kill_switch' || flag.exchange === '_system',
  );
  return (
    <div
      className={halted ? 'banner banner-halt' : 'banner'}
      role="alert"
      data-testid="maintenance-banner"
    >
      <ul>
        {flags.map((flag) => (
          <li key={flag.exchange}>{describe(flag)}</li>
        ))}
      </ul>
    </div>
  );
}
