// The links a view shows that come from the server's settings or the app's routes (quick guides, support
// address, products page, sign-in): built here, so views never reach into src/services themselves.
export { quickGuideUrl, supportEmailAddress } from '../services/help';
export { productsUrl } from '../services/products';
export { signInHref } from '../services/navigation';
