export * from './budget-account';
export * from './budget-change-causes';
export * from './budget-common';
export * from './budget-cumulative';
export * from './budget-get';
export * from './budget-release';
export * from './budget-reserve';
export * from './budget-reserve-batch';
