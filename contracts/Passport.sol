// SPDX-License-Identifier: MIT
// Agent passports: one soulbound ERC-721 per wallet (ERC-5192), minted by the registrar or by the
// wallet itself. Nothing else can ever move, approve or burn a passport.
pragma solidity 0.8.28;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";

/// ERC-5192: Minimal Soulbound NFTs. Interface id 0xb45a3c0e (the selector of `locked`).
interface IERC5192 {
    event Locked(uint256 tokenId);
    event Unlocked(uint256 tokenId);

    function locked(uint256 tokenId) external view returns (bool);
}

contract Passport is ERC721, AccessControl, IERC5192 {
    bytes32 public constant REGISTRAR_ROLE = keccak256("REGISTRAR_ROLE");

    /// Token id held by each wallet; 0 means none, which is why ids start at 1.
    mapping(address holder => uint256 tokenId) public passportOf;
    uint256 private _lastTokenId;

    error AlreadyHasPassport(address holder, uint256 tokenId);
    error MintNotAuthorized(address caller, address to);
    error Soulbound(uint256 tokenId);
    error ApprovalsDisabled();

    constructor(address registrar) ERC721("taskmarket Agent Passport", "TMAP") {
        _grantRole(DEFAULT_ADMIN_ROLE, registrar);
        _grantRole(REGISTRAR_ROLE, registrar);
    }

    /// The registrar mints for anyone (the backend path); a wallet may mint for itself (the SDK path).
    function mint(address to) external returns (uint256 tokenId) {
        if (msg.sender != to && !hasRole(REGISTRAR_ROLE, msg.sender)) revert MintNotAuthorized(msg.sender, to);
        uint256 existing = passportOf[to];
        if (existing != 0) revert AlreadyHasPassport(to, existing);
        tokenId = ++_lastTokenId;
        passportOf[to] = tokenId;
        // _mint, not _safeMint: no receiver callback, so smart-contract wallets without
        // onERC721Received can hold a passport and minting makes no external call.
        _mint(to, tokenId);
        emit Locked(tokenId);
    }

    /// ERC-5192: every passport is locked for life; unknown ids revert as ownerOf does.
    function locked(uint256 tokenId) external view returns (bool) {
        _requireOwned(tokenId);
        return true;
    }

    /// Every transfer path of ERC721 (transferFrom, safeTransferFrom, burn) ends here; only mint passes.
    function _update(address to, uint256 tokenId, address auth) internal override returns (address) {
        if (_ownerOf(tokenId) != address(0)) revert Soulbound(tokenId);
        return super._update(to, tokenId, auth);
    }

    /// Approvals could never be used, so they are refused rather than recorded.
    function approve(address, uint256) public virtual override {
        _refuseApproval();
    }

    function setApprovalForAll(address, bool) public virtual override {
        _refuseApproval();
    }

    function supportsInterface(bytes4 interfaceId) public view override(ERC721, AccessControl) returns (bool) {
        return interfaceId == type(IERC5192).interfaceId || super.supportsInterface(interfaceId);
    }

    function _refuseApproval() private pure {
        revert ApprovalsDisabled();
    }
}
