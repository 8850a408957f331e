export * from './venue/venue';
