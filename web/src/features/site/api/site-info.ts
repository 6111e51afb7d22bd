/** The public site info lives in lib/ (the layout and navbar read it too); features import it here. */
export { siteInfoQuery, useSiteInfo } from '../../../lib/site-info';
